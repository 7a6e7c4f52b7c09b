"use client";
import dynamic from "next/dynamic";

// Clerk's code is loaded only where Clerk is configured and its components are
// rendered: with the local sign-in, no page carries any of it.
export const ClerkProvider = dynamic(() => import("@clerk/nextjs").then((m) => m.ClerkProvider));
export const ClerkSignIn = dynamic(() => import("./clerk-sign-in.tsx").then((m) => m.ClerkSignIn));
export const ClerkEditor = dynamic(() => import("./clerk-editor.tsx").then((m) => m.ClerkEditor));

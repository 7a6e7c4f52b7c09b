"use client";
import { ClerkFailed, ClerkLoading, SignIn } from "@clerk/nextjs";
import { ClerkUnavailable } from "./clerk-unavailable.tsx";

/** Clerk's sign-in form, back to `next` afterwards; a message while it loads or when it cannot. */
export function ClerkSignIn({ next }: { next: string }) {
  return (
    <>
      <ClerkLoading>
        <p className="status">Loading sign-in…</p>
      </ClerkLoading>
      <ClerkFailed>
        <ClerkUnavailable />
      </ClerkFailed>
      <SignIn routing="hash" forceRedirectUrl={next} signUpForceRedirectUrl={next} />
    </>
  );
}

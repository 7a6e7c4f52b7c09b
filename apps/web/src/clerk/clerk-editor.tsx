"use client";
import { ClerkFailed, ClerkLoading, UserButton, useAuth } from "@clerk/nextjs";
import { useEffect, useLayoutEffect } from "react";
import { Editor } from "../editor/editor.tsx";
import { setBearerTokenSource } from "../editor/trpc.ts";
import { ClerkUnavailable } from "./clerk-unavailable.tsx";

/**
 * The editor signed in with Clerk. Clerk keeps the session in the browser; the
 * editor's calls carry a token of the Clerk JWT template whose audience the
 * API accepts (the same kind of token REST clients send, checked by the same
 * verifier), so the server needs no Clerk code. Signed-out visitors are sent
 * to the sign-in page; drafts stay in sessionStorage meanwhile.
 */
export function ClerkEditor({ jwtTemplate }: { jwtTemplate: string }) {
  const { isLoaded, isSignedIn, userId, getToken } = useAuth();
  // A layout effect runs before the editor's first data call (a passive effect).
  useLayoutEffect(() => {
    setBearerTokenSource(() => getToken({ template: jwtTemplate }));
    return () => setBearerTokenSource(undefined);
  }, [getToken, jwtTemplate]);
  useEffect(() => {
    if (isLoaded && !isSignedIn) window.location.replace("/sign-in?next=/editor");
  }, [isLoaded, isSignedIn]);

  if (!isSignedIn) {
    return (
      <main className="narrow">
        <ClerkLoading>
          <p className="status">Loading…</p>
        </ClerkLoading>
        <ClerkFailed>
          <ClerkUnavailable />
        </ClerkFailed>
      </main>
    );
  }
  return <Editor userId={userId} account={<UserButton />} />;
}

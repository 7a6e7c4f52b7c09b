"use client";
import type { FormEvent } from "react";
import { forgetDrafts, hasUnsavedDrafts } from "./use-session-draft.ts";

/** The local sign-in's account corner: who is signed in, and a sign-out button. */
export function LocalAccount({ userId }: { userId: string }) {
  // What was typed and not saved is lost with the session, so asked about first; the drafts kept
  // in this tab are then dropped, for whoever uses the browser next.
  function signOut(event: FormEvent) {
    if (hasUnsavedDrafts() && !window.confirm("Sign out? What you typed and did not save will be lost.")) {
      event.preventDefault();
      return;
    }
    forgetDrafts(`draft:${userId}:`);
  }

  return (
    <div className="row account">
      {/* On a phone only the id shows (cut short if need be), so that the top bar keeps to one row. */}
      <p className="account-name" title={userId}>
        <span className="account-label">Signed in as </span>
        <strong>{userId}</strong>
      </p>
      <form method="post" action="/api/session" onSubmit={signOut}>
        <input type="hidden" name="action" value="sign-out" />
        <button type="submit" className="secondary">
          Sign out
        </button>
      </form>
    </div>
  );
}

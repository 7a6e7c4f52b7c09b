"use client";
import { useCallback } from "react";
import { useEditorSession } from "./editor-session.tsx";
import { describeFailure, type SaveFailure } from "./trpc.ts";

/**
 * What every failed call of the editor goes through, so that each place
 * treats a failure the same way: the failure in the editor's words
 * (`describeFailure`), and an expired session (401) reported to the session,
 * which turns the account corner into "Session expired" and shows "Sign in
 * again". The caller shows the returned failure where it shows its own
 * messages (at the form, in the section, in its live region): that part
 * differs from place to place.
 */
export function useFailureHandler(): (error: unknown) => SaveFailure {
  const { markExpired } = useEditorSession();
  return useCallback(
    (error: unknown) => {
      const failure = describeFailure(error);
      if (failure.kind === "signed-out") markExpired();
      return failure;
    },
    [markExpired],
  );
}

"use client";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";

export interface EditorSession {
  /** Who is signed in: drafts are kept under their id, and "Sign in again" offers it. */
  userId: string;
  /** True once the server refused a call for want of a session (401). */
  expired: boolean;
  /** Says the session expired: the editor then offers to sign in again instead of the account corner. */
  markExpired(): void;
}

const SessionContext = createContext<EditorSession | null>(null);

/**
 * The editor's session, provided once at its root (`Editor`), so that any
 * form or panel can read who is signed in and report an expired session
 * without each component passing it down to the next.
 */
export function EditorSessionProvider({ userId, children }: { userId: string; children: ReactNode }) {
  const [expired, setExpired] = useState(false);
  // Stable, so that the callbacks and effects that report failures keep their identity.
  const markExpired = useCallback(() => setExpired(true), []);
  const session = useMemo(() => ({ userId, expired, markExpired }), [userId, expired, markExpired]);
  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useEditorSession(): EditorSession {
  const session = useContext(SessionContext);
  // A component outside the provider is a programming error, not a state to render.
  if (!session) throw new Error("useEditorSession is used outside <EditorSessionProvider>");
  return session;
}

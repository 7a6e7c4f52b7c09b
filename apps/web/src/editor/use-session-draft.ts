"use client";
import { useCallback, useEffect, useState, type Dispatch, type SetStateAction } from "react";

/**
 * The drafts this tab keeps: what was typed and not saved, whether its form
 * is open or not (the Idempotency-Keys kept beside them aside).
 */
function storedDrafts(): string[] {
  return sessionKeys().filter((key) => key.startsWith("draft:") && !key.endsWith(":idempotency-key"));
}

/** Every key this tab's sessionStorage holds. */
function sessionKeys(): string[] {
  return Array.from({ length: window.sessionStorage.length }, (_, i) => window.sessionStorage.key(i) ?? "");
}

/** Set by a way out that keeps the drafts (signing in again): leaving then asks nothing. */
let leavingWithDrafts = false;

function askBeforeLeaving(event: BeforeUnloadEvent) {
  if (leavingWithDrafts || storedDrafts().length === 0) return;
  event.preventDefault();
  event.returnValue = "unsaved"; // for browsers from before preventDefault asked
}

/** Whether some form holds what its person typed and has not saved. */
export const hasUnsavedDrafts = (): boolean => storedDrafts().length > 0;

/** Leaving the page now keeps the drafts for when it is back (the sign-in round trip): no question. */
export function leaveKeepingDrafts(): void {
  leavingWithDrafts = true;
}

/**
 * State kept in sessionStorage under `key` as well while it differs from
 * `initial()`, so that what a person typed survives a failed save, an expired
 * session and a sign-in round trip. Meanwhile closing or leaving the page asks
 * first. `clear` (saved, or cancelled) drops the draft and makes `saved` (by
 * default the state as it is) the one to compare with: what was typed after
 * it, while a save was under way, stays a draft.
 */
export function useSessionDraft<T>(
  key: string,
  initial: () => T,
): [T, Dispatch<SetStateAction<T>>, (saved?: T) => void] {
  const [opened, setOpened] = useState(() => JSON.stringify(initial()));
  const [value, setValue] = useState<T>(() => {
    const stored = typeof window === "undefined" ? null : window.sessionStorage.getItem(key);
    return JSON.parse(stored ?? opened) as T;
  });
  useEffect(() => {
    const text = JSON.stringify(value);
    if (text === opened) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, text);
    window.addEventListener("beforeunload", askBeforeLeaving);
  }, [key, value, opened]);
  const clear = useCallback(
    (saved?: T) => {
      window.sessionStorage.removeItem(key);
      setOpened(JSON.stringify(saved ?? value));
    },
    [key, value],
  );
  return [value, setValue, clear];
}

/** True when a draft for `key` was kept from before (the form reopens with it). */
export function hasDraft(key: string): boolean {
  return typeof window !== "undefined" && window.sessionStorage.getItem(key) !== null;
}

/** Whether the draft under `key` may go: there is none, or the person says so when asked `question`. */
export function mayDiscardDraft(key: string, question = "Discard what you typed in this form?"): boolean {
  return !hasDraft(key) || window.confirm(question);
}

/** The draft kept under `key`, as it was typed (null: none). */
export function storedDraft<T>(key: string): T | null {
  if (typeof window === "undefined") return null;
  return JSON.parse(window.sessionStorage.getItem(key) ?? "null") as T | null;
}

/**
 * The drafts under `prefix` + an id whose id is not in `ids` (the entry was
 * deleted in another tab, and this page was reloaded since): the first goes
 * to `to`, less `dropped`'s fields, unless `to` holds a draft of its own.
 * True when one went.
 */
export function adoptStrandedDraft(prefix: string, ids: string[], to: string, dropped: string[]): boolean {
  if (typeof window === "undefined" || hasDraft(to)) return false;
  const stranded = storedDrafts().find(
    (key) => key.startsWith(prefix) && !ids.includes(key.slice(prefix.length)),
  );
  if (stranded === undefined) return false;
  const values = storedDraft<Record<string, unknown>>(stranded)!;
  for (const field of dropped) delete values[field];
  window.sessionStorage.setItem(to, JSON.stringify(values));
  window.sessionStorage.removeItem(stranded);
  window.sessionStorage.removeItem(`${stranded}:idempotency-key`);
  return true;
}

/**
 * Drops every draft whose key starts with `prefix` (with the Idempotency-Keys
 * kept beside them): after a whole resume is replaced, drafts of the old one
 * would otherwise reopen and save it back over the new; after a sign-out, the
 * next person at the browser would find them.
 */
export function forgetDrafts(prefix: string): void {
  for (const key of sessionKeys()) if (key.startsWith(prefix)) window.sessionStorage.removeItem(key);
}

/** The ids of the drafts kept under `prefix` + an id. */
export function draftIdsUnder(prefix: string): string[] {
  if (typeof window === "undefined") return [];
  return storedDrafts()
    .filter((key) => key.startsWith(prefix))
    .map((key) => key.slice(prefix.length));
}

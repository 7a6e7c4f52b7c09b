"use client";
import { useCallback, useEffect, useState } from "react";

/**
 * State kept in sessionStorage under `key` as well, so that what a person
 * typed survives a failed save, an expired session and a sign-in round trip.
 */
export function useSessionDraft<T>(key: string, initial: () => T): [T, (next: T) => void, () => void] {
  const [value, setValue] = useState<T>(() => {
    if (typeof window === "undefined") return initial();
    const stored = window.sessionStorage.getItem(key);
    return stored ? (JSON.parse(stored) as T) : initial();
  });
  useEffect(() => {
    window.sessionStorage.setItem(key, JSON.stringify(value));
  }, [key, value]);
  const clear = useCallback(() => window.sessionStorage.removeItem(key), [key]);
  return [value, setValue, clear];
}

/** True when a draft for `key` was kept from before (the form reopens with it). */
export function hasDraft(key: string): boolean {
  return typeof window !== "undefined" && window.sessionStorage.getItem(key) !== null;
}

/**
 * Drops every draft whose key starts with `prefix` (with the Idempotency-Keys
 * kept beside them): after a whole resume is replaced, drafts of the old one
 * would otherwise reopen and save it back over the new.
 */
export function forgetDrafts(prefix: string): void {
  const keys = Array.from({ length: window.sessionStorage.length }, (_, i) => window.sessionStorage.key(i));
  for (const key of keys) if (key?.startsWith(prefix)) window.sessionStorage.removeItem(key);
}

"use client";
import { useSyncExternalStore } from "react";

/**
 * Whether `query` (a CSS media query) matches now, following its changes.
 * False on the server and in the first render after it, which must match the
 * server's HTML; the real answer comes right after.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", changed);
      return () => list.removeEventListener("change", changed);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

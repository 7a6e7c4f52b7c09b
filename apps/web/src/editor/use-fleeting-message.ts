"use client";
import { useEffect, useState } from "react";

/** How long a confirmation ("Saved.") stays on screen after it was announced. */
const SHOWN_MS = 5_000;

/**
 * A confirmation for a live region (role="status"): screen readers announce
 * it when it appears, and it goes away by itself instead of staying under the
 * form. Saying the same thing again shows it again.
 */
export function useFleetingMessage(): [string, (text: string) => void] {
  // An object, not the string: saying the same text again is a new message and restarts the timer.
  const [message, setMessage] = useState({ text: "" });
  useEffect(() => {
    if (!message.text) return;
    const timer = setTimeout(() => setMessage({ text: "" }), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [message]);
  return [message.text, (text) => setMessage({ text })];
}

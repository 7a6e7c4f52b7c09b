"use client";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useState,
  type ReactNode,
} from "react";

/** How long a confirmation ("Saved.") stays on screen after it was announced. */
const SHOWN_MS = 5_000;

interface Confirmation {
  text: string;
  /** The place (a form or section) that said it, and shows it. */
  place: string;
}

interface ConfirmationContext {
  current: Confirmation;
  confirm(place: string, text: string): void;
}

const Context = createContext<ConfirmationContext | null>(null);

/**
 * The editor's one confirmation: "Added.", "Saved.", "Deleted …", "Profile
 * saved.". Each is shown where its action happened, in that place's live
 * region (role="status"), and goes after 5 seconds; a new one replaces any
 * other still shown, so that a person who adds in one section and then in
 * another does not see two "Added." at once, nor wonder which one is new.
 */
export function ConfirmationProvider({ children }: { children: ReactNode }) {
  // A new object per message: saying the same text again is a new message and restarts the timer.
  const [current, setCurrent] = useState<Confirmation>({ text: "", place: "" });
  useEffect(() => {
    if (!current.text) return;
    const timer = setTimeout(() => setCurrent({ text: "", place: "" }), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [current]);
  const confirm = useCallback(
    (place: string, text: string) =>
      // An empty text takes back only this place's own confirmation, never another's.
      setCurrent((shown) => (text || shown.place === place ? { text, place } : shown)),
    [],
  );
  const value = useMemo(() => ({ current, confirm }), [current, confirm]);
  return <Context value={value}>{children}</Context>;
}

/**
 * This place's confirmation, for its live region (empty unless this place
 * said the editor's latest one), and the function that says a new one.
 */
export function useConfirmation(): [string, (text: string) => void] {
  const context = useContext(Context);
  // A component outside the provider is a programming error, not a state to render.
  if (!context) throw new Error("useConfirmation is used outside <ConfirmationProvider>");
  const place = useId();
  const { current, confirm } = context;
  const say = useCallback((text: string) => confirm(place, text), [confirm, place]);
  return [current.place === place ? current.text : "", say];
}

"use client";
import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from "react";

/**
 * The behaviour the editor's menus (Download…, More…) share: a button that
 * opens a list of buttons with the focus on the first, Escape closing it and
 * giving the focus back to the button, and the list closing when the focus
 * leaves the menu. Spread `container` on the element around both, `trigger`
 * on the button and `list` on the list.
 */
export function useDisclosureMenu() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const listId = useId();

  useEffect(() => {
    if (open) listRef.current?.querySelector("button")?.focus();
  }, [open]);

  function close() {
    setOpen(false);
    button.current?.focus();
  }

  return {
    open,
    close,
    container: {
      onKeyDown: (event: KeyboardEvent) => event.key === "Escape" && open && close(),
      onBlur: (event: FocusEvent<HTMLElement>) => {
        if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      },
    },
    trigger: {
      ref: button,
      "aria-expanded": open,
      "aria-controls": listId,
      onClick: () => setOpen(!open),
    },
    list: { id: listId, ref: listRef },
  };
}

"use client";
import { useEffect, useId, useRef, useState, type FocusEvent } from "react";

export interface MoreMenuItem {
  label: string;
  disabled?: boolean;
  onSelect(): void;
}

/**
 * The phone toolbar's "More…" menu: the actions that do not fit on its one
 * row. It works as the Download menu does: it opens from the keyboard (Enter
 * or Space on its button) with the focus on its first item, and Escape closes
 * it and gives the focus back to the button; it also closes when the focus
 * leaves it. Choosing an item closes the menu and gives the focus back to the
 * button before the action runs, so that a panel the action opens can give it
 * back there when it closes.
 */
export function MoreMenu({ items, className }: { items: MoreMenuItem[]; className?: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const listId = useId();

  useEffect(() => {
    if (open) list.current?.querySelector("button")?.focus();
  }, [open]);

  function close() {
    setOpen(false);
    button.current?.focus();
  }

  function leave(event: FocusEvent<HTMLDivElement>) {
    if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
  }

  return (
    <div
      className={`menu ${className ?? ""}`}
      onKeyDown={(event) => event.key === "Escape" && open && close()}
      onBlur={leave}
    >
      <button
        type="button"
        className="secondary"
        ref={button}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        More…
      </button>
      {open && (
        <ul id={listId} ref={list} className="menu-list" aria-label="More actions">
          {items.map((item) => (
            <li key={item.label}>
              <button
                type="button"
                className="secondary"
                disabled={item.disabled}
                onClick={() => {
                  close();
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

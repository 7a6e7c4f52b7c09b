"use client";
import { useDisclosureMenu } from "./use-disclosure-menu.ts";

export interface MoreMenuItem {
  label: string;
  disabled?: boolean;
  onSelect(): void;
}

/**
 * The phone toolbar's "More…" menu: the actions that do not fit on its one
 * row, a menu as the Download menu is (use-disclosure-menu.ts). Choosing an
 * item closes the menu and gives the focus back to the button before the
 * action runs, so that a panel the action opens can give it back there when
 * it closes.
 */
export function MoreMenu({ items, className }: { items: MoreMenuItem[]; className?: string }) {
  const menu = useDisclosureMenu();
  return (
    <div className={`menu ${className ?? ""}`} {...menu.container}>
      <button type="button" className="secondary" {...menu.trigger}>
        More…
      </button>
      {menu.open && (
        <ul {...menu.list} className="menu-list" aria-label="More actions">
          {items.map((item) => (
            <li key={item.label}>
              <button
                type="button"
                className="secondary"
                disabled={item.disabled}
                onClick={() => {
                  menu.close();
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

"use client";
import { useRef, type KeyboardEvent } from "react";

export type EditorTab = "edit" | "preview";

const TABS: { tab: EditorTab; label: string }[] = [
  { tab: "edit", label: "Edit" },
  { tab: "preview", label: "Preview" },
];

export const tabId = (tab: EditorTab) => `editor-tab-${tab}`;
export const panelId = (tab: EditorTab) => `editor-panel-${tab}`;

/**
 * The phone layout's Edit and Preview tabs (the ARIA tabs pattern): the
 * selected tab alone is in the Tab order, the arrow keys, Home and End move
 * to another tab and select it. The panels are the editor's own elements,
 * given `role="tabpanel"` by the editor with `panelProps`.
 */
export function EditorTabs({ selected, onSelect }: { selected: EditorTab; onSelect(tab: EditorTab): void }) {
  const list = useRef<HTMLDivElement>(null);

  function move(event: KeyboardEvent) {
    const index = TABS.findIndex(({ tab }) => tab === selected);
    const next = {
      ArrowRight: (index + 1) % TABS.length,
      ArrowLeft: (index - 1 + TABS.length) % TABS.length,
      Home: 0,
      End: TABS.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const { tab } = TABS[next]!;
    onSelect(tab);
    list.current?.querySelector<HTMLElement>(`#${tabId(tab)}`)?.focus();
  }

  return (
    <div role="tablist" aria-label="Editor" className="editor-tabs no-print" ref={list} onKeyDown={move}>
      {TABS.map(({ tab, label }) => (
        <button
          key={tab}
          type="button"
          role="tab"
          id={tabId(tab)}
          aria-controls={panelId(tab)}
          aria-selected={tab === selected}
          tabIndex={tab === selected ? 0 : -1}
          onClick={() => onSelect(tab)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/** The attributes of the panel of `tab`: a tab panel, hidden unless its tab is selected. */
export function panelProps(tab: EditorTab, selected: EditorTab) {
  return { role: "tabpanel", id: panelId(tab), "aria-labelledby": tabId(tab), hidden: tab !== selected };
}

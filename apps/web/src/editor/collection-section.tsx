"use client";
import { useEffect, useRef, useState } from "react";
import type { CollectionName, EntryOf } from "@app/resume/client";
import { useConfirmation } from "./editor-confirmation.tsx";
import { useEditorSession } from "./editor-session.tsx";
import { EntryForm } from "./entry-form.tsx";
import { SECTIONS, type SectionSpec } from "./field-specs.ts";
import { neighbourOf } from "./neighbour-of.ts";
import { api, forgetIdempotencyKey, onlyOver } from "./trpc.ts";
import { useFailureHandler } from "./use-failure-handler.ts";
import { BASED_ON } from "./form-values.ts";
import { distinctNames } from "./distinct-names.ts";
import { adoptStrandedDraft, forgetDrafts, hasDraft, mayDiscardDraft } from "./use-session-draft.ts";

interface Props<Name extends CollectionName> {
  collection: Name;
  /** The entries in the service's order. */
  entries: EntryOf<Name>[];
  onChanged(): void;
}

/** One collection: its entries as the service orders them, with add, edit and delete (after confirmation). */
export function CollectionSection<Name extends CollectionName>({
  collection,
  entries,
  onChanged,
}: Props<Name>) {
  const { userId } = useEditorSession();
  const handleFailure = useFailureHandler();
  const section: SectionSpec<EntryOf<Name>> = SECTIONS[collection];
  const draftKey = (id: string) => `draft:${userId}:${collection}-${id}`;
  // The draft of an entry deleted elsewhere since this page was loaded becomes the Add form's, to add it again.
  const [adopted] = useState(() =>
    adoptStrandedDraft(draftKey(""), ["new", ...entries.map((e) => e.id)], draftKey("new"), [BASED_ON]),
  );
  // A form with a kept draft (a failed save, an expired session) opens again by itself.
  const [editing, setEditing] = useState<string | null>(
    () => ["new", ...entries.map((e) => e.id)].find((id) => hasDraft(draftKey(id))) ?? null,
  );
  /** The entry whose open form found it deleted by another tab or app: its form stays, to add it again. */
  const [deleted, setDeleted] = useState<EntryOf<Name> | null>(null);
  const rows =
    deleted && editing === deleted.id && !entries.some((e) => e.id === deleted.id)
      ? [...entries, deleted]
      : entries;
  const [confirmation, announce] = useConfirmation();
  const [problem, setProblem] = useState(
    adopted
      ? `The ${section.noun} you were editing was deleted in another tab or app. What you typed is in the form below: add it again, or Cancel.`
      : "",
  );
  const sectionRef = useRef<HTMLElement>(null);
  /** The button that opens the form of entry `id` ("new": Add), while it is shown. */
  const opens = (id: string) => sectionRef.current?.querySelector<HTMLElement>(`[data-opens="${id}"]`);
  /** Where focus goes when a form closes: the button that opened it. */
  const returnFocusTo = useRef<string | null>(null);

  useEffect(() => {
    const opener = returnFocusTo.current;
    if (editing !== null || opener === null) return;
    returnFocusTo.current = null;
    // An entry deleted while its form was open has no Edit button left: Add takes the focus.
    (opens(opener) ?? opens("new"))?.focus();
  }, [editing]);

  function open(id: string) {
    // One form at a time: what is typed in the open one goes only when the person says so, as with Escape.
    if (editing !== null && editing !== id) {
      if (!mayDiscardDraft(draftKey(editing))) return;
      forgetDrafts(draftKey(editing));
    }
    returnFocusTo.current = id;
    setProblem("");
    setDeleted(null);
    setEditing(id);
  }

  function close() {
    setDeleted(null);
    setEditing(null);
    setProblem("");
  }

  async function remove(entry: EntryOf<Name>) {
    const { title } = section.summary(entry);
    if (!window.confirm(`Delete “${title}”? This cannot be undone.`)) return;
    let done = `Deleted “${title}”.`;
    try {
      // Only the version the person saw: what another tab or app changed meanwhile is shown first.
      await api[collection].delete.mutate({ id: entry.id }, { context: onlyOver(entry.updated_at) });
    } catch (error) {
      const failure = handleFailure(error);
      if (failure.kind === "changed") {
        setProblem(
          `“${title}” was changed in another tab or app since this page showed it, so it was not deleted. Here it is as it is now: delete it again if you still want to.`,
        );
        return onChanged();
      }
      if (failure.kind !== "gone") return setProblem(failure.message);
      done = `“${title}” was already deleted in another tab or app.`;
    }
    // Deleted here, on purpose: a draft of it kept in this tab is not to come back as deleted elsewhere.
    forgetDrafts(draftKey(entry.id));
    // The list is read again below, showing what an add whose answer was lost made: from now on the
    // Add form's typing is a new add, not that one's answer again (which may be the entry just deleted).
    forgetIdempotencyKey(draftKey("new"));
    setProblem("");
    announce(done);
    // The focus was on the Delete button that goes with its entry: the next entry's Edit takes it,
    // else the one before's, else Add. Where that button is gone, its form open, the form's first field.
    const next = neighbourOf(entries, entry.id);
    const openFormField = sectionRef.current?.querySelector<HTMLElement>(
      "form :is(input, select, textarea):not([type=hidden])",
    );
    ((next && opens(next.id)) ?? openFormField ?? opens("new"))?.focus();
    onChanged();
  }

  const headingId = `${collection}-heading`;
  const summaries = rows.map((entry) => section.summary(entry));
  const names = distinctNames(summaries);
  const form = (entry?: EntryOf<Name>) => (
    <EntryForm
      collection={collection}
      {...(entry ? { entry } : {})}
      {...(entry && entry.id === deleted?.id ? { deleted: true } : {})}
      onSaved={() => {
        close();
        announce(entry && entry.id !== deleted?.id ? "Saved." : "Added.");
        onChanged();
      }}
      onCancel={close}
      onChangedElsewhere={onChanged}
      onDeletedElsewhere={() => {
        setDeleted(entry ?? null);
        onChanged();
      }}
    />
  );

  return (
    <section className="card" aria-labelledby={headingId} ref={sectionRef}>
      <h2 id={headingId}>{section.title}</h2>
      <ul className="entries">
        {rows.map((entry, index) => {
          const { id } = entry;
          const { title, meta } = summaries[index]!;
          return (
            <li key={id} data-testid={`${collection}-entry`}>
              {editing === id ? (
                <div className="entry-form">{form(entry)}</div>
              ) : (
                <>
                  <span className="entry-title">
                    {title}
                    <span className="entry-meta">{meta}</span>
                  </span>
                  {/* The same place in every row (the right of its first line), however long the title. */}
                  <span className="row entry-actions">
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Edit ${names[index]}`}
                      data-opens={id}
                      onClick={() => open(id)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Delete ${names[index]}`}
                      onClick={() => void remove(entry)}
                    >
                      Delete
                    </button>
                  </span>
                </>
              )}
            </li>
          );
        })}
      </ul>
      {rows.length === 0 && <p className="status">No {section.title.toLowerCase()} yet.</p>}
      {editing === "new" ? (
        form()
      ) : (
        <button type="button" data-opens="new" onClick={() => open("new")}>
          Add {section.noun}
        </button>
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <p className="status" role="status">
        {confirmation}
      </p>
    </section>
  );
}

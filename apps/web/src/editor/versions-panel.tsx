"use client";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { COLLECTIONS, type ShareLink, type TailoredVersion, type WholeResume } from "@app/resume/client";
import { distinctNames } from "./distinct-names.ts";
import { useEditorSession } from "./editor-session.tsx";
import { hasExpired } from "./local-dates.ts";
import { focusNeighbourOf } from "./neighbour-of.ts";
import { api, forgetIdempotencyKey, idempotencyKeyFor, onlyOver } from "./trpc.ts";
import { useFailureHandler } from "./use-failure-handler.ts";
import { draftIdsUnder, forgetDrafts, mayDiscardDraft, storedDraft } from "./use-session-draft.ts";
import { versionDraftPrefix } from "./version-draft-prefix.ts";
import { VersionEditor } from "./version-editor.tsx";

/**
 * "3 of 5 entries": what a version shows of the resume as it is now. The
 * versions are read again only when the list changes, so a version's list may
 * still name entries deleted since: those are no longer shown, and not counted.
 */
function shownOf(version: TailoredVersion, resume: WholeResume): string {
  const total = COLLECTIONS.reduce((sum, c) => sum + resume[c.name].length, 0);
  const shown = COLLECTIONS.reduce((sum, c) => {
    const choice = version.include[c.name];
    if (choice === "all") return sum + resume[c.name].length;
    return sum + resume[c.name].filter((entry) => choice.includes(entry.id)).length;
  }, 0);
  return `${shown} of ${total} ${total === 1 ? "entry" : "entries"}`;
}

/**
 * The version a draft kept from before (a reload, a sign-in) was typed for,
 * when that version was deleted elsewhere since: as the draft has it, to be
 * made again. Its updated_at is none the draft has, so the draft stays kept
 * until it is made again or closed.
 */
function versionOfDraft(prefix: string, id: string): TailoredVersion | null {
  try {
    const draft = storedDraft<Omit<TailoredVersion, "id" | "created_at" | "updated_at">>(`${prefix}${id}`);
    if (!draft) return null;
    const { name, headline, summary, theme, hide_email, include } = draft;
    return { id, name, headline, summary, theme, hide_email, include, created_at: "", updated_at: "" };
  } catch {
    return null;
  }
}

/** The open editor: its version's id, and that version as it was when it was found deleted elsewhere. */
type Open = { id: string; deleted?: TailoredVersion } | null;

/**
 * Tailored versions (docs/resume-api.md, "Tailored versions"): views of the
 * one resume, made, renamed and deleted here, each opened in a VersionEditor
 * to tick its entries, preview and download it and share it by link.
 * Loaded only when opened.
 */
export default function VersionsPanel({ resume }: { resume: WholeResume }) {
  const { userId } = useEditorSession();
  const createKey = `create:${userId}:version`;
  const handleFailure = useFailureHandler();
  const [versions, setVersions] = useState<TailoredVersion[] | null>(null);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState("");
  const [status, setStatus] = useState("");
  const [open, setOpen] = useState<Open>(null);
  const openId = open?.id ?? null;
  const setOpenId = (id: string | null) => setOpen(id === null ? null : { id });
  const listRef = useRef<HTMLUListElement>(null);
  const newNameRef = useRef<HTMLInputElement>(null);

  // Opened by its button, which is gone now: the new version's name takes the focus.
  useEffect(() => newNameRef.current?.focus(), []);

  /** The versions as last read, for an open one that a new read no longer lists. */
  const lastRead = useRef<TailoredVersion[]>([]);

  const reload = useCallback(async () => {
    try {
      const { items } = await api.versions.list.query();
      const before = lastRead.current;
      lastRead.current = items;
      setVersions(items);
      // A version's draft kept from before (a reload, a sign-in) opens its editor again; one of a version
      // deleted elsewhere meanwhile too, to make it again (a draft is dropped only by Close or a delete here).
      const prefix = versionDraftPrefix(userId);
      const listed = new Set(items.map((version) => version.id));
      setOpen((current) => {
        if (current?.deleted || (current && listed.has(current.id))) return current;
        // Open here and deleted elsewhere (this read was for another change): it stays, to be made again.
        if (current) {
          const stranded = versionOfDraft(prefix, current.id) ?? before.find((v) => v.id === current.id);
          return stranded ? { id: current.id, deleted: stranded } : null;
        }
        for (const id of draftIdsUnder(prefix)) {
          if (listed.has(id)) return { id };
          const stranded = versionOfDraft(prefix, id);
          if (stranded) return { id, deleted: stranded };
        }
        return null;
      });
    } catch (error) {
      setStatus(handleFailure(error).message);
    }
  }, [handleFailure, userId]);

  useEffect(() => {
    void reload();
  }, [reload]);

  /**
   * Whether the open version's editor may give way to another: one editor is
   * open at a time, and what is typed in it goes only when the person says so.
   */
  function mayLeaveOpenVersion(): boolean {
    if (openId === null) return true;
    const draftKey = `${versionDraftPrefix(userId)}${openId}`;
    if (!mayDiscardDraft(draftKey, "Discard what you typed in the open version?")) return false;
    // Closed at once: the typing is gone, as the person said, whatever comes next.
    forgetDrafts(draftKey);
    setOpenId(null);
    return true;
  }

  async function create(event: FormEvent) {
    event.preventDefault();
    setNameError("");
    // A name left empty is refused without a question: nothing is made, nothing need give way.
    if (name.trim() && !mayLeaveOpenVersion()) return;
    // The same key while the name is the same: making it again after a failure whose answer was lost gets
    // that version, not a second one.
    try {
      const made = await api.versions.create.mutate(
        { name },
        { context: { headers: { "idempotency-key": idempotencyKeyFor(createKey, { name }) } } },
      );
      forgetIdempotencyKey(createKey);
      setName("");
      setStatus(`Version “${made.name}” made.`);
      await reload();
      // Opened unless the person opened another version's editor while the create was under way: that one stays.
      setOpen((current) => current ?? { id: made.id });
    } catch (error) {
      const failure = handleFailure(error);
      setNameError(failure.fieldErrors.name ?? "");
      setStatus(failure.message);
    }
  }

  async function remove(version: TailoredVersion) {
    if (!window.confirm(`Delete the version “${version.name}”? ${await whatItsLinksLose(version)}`)) return;
    let done = `Version “${version.name}” deleted.`;
    try {
      // Only the version the person saw: what another tab or app changed meanwhile is shown first.
      await api.versions.delete.mutate({ id: version.id }, { context: onlyOver(version.updated_at) });
    } catch (error) {
      const failure = handleFailure(error);
      if (failure.kind === "changed") {
        setStatus(
          `The version “${version.name}” was changed in another tab or app since this page showed it, so it was not deleted. Here it is as it is now: delete it again if you still want to.`,
        );
        return reload();
      }
      if (failure.kind !== "gone") return setStatus(failure.message);
      done = `The version “${version.name}” was already deleted in another tab or app.`;
    }
    // Deleted here, on purpose: its typing is not to come back as a version deleted elsewhere.
    forgetDrafts(`${versionDraftPrefix(userId)}${version.id}`);
    // The list is read again below, showing what a create whose answer was lost made: from now on
    // creating is a new create, not that one's answer again (which may be the version just deleted).
    forgetIdempotencyKey(createKey);
    if (openId === version.id) setOpenId(null);
    setStatus(done);
    // The focus was on the Delete button that goes with its version: a neighbour's Edit takes it, else the new name.
    focusNeighbourOf(versions, version.id, {
      list: listRef.current,
      attribute: "data-opens",
      fallback: newNameRef.current,
    });
    await reload();
  }

  /** The Edit button of the version `id`, if it is listed. */
  const opener = (id: string) => listRef.current?.querySelector<HTMLElement>(`[data-opens="${id}"]`);

  function close(version: TailoredVersion) {
    setOpenId(null);
    // Back to the button that opened it; a version deleted elsewhere has none left.
    (opener(version.id) ?? newNameRef.current)?.focus();
  }

  async function madeAgain(made: TailoredVersion) {
    // Listed and open at once, in the deleted one's stead, before the list is read again.
    setVersions((current) => current && [...current, made]);
    setOpenId(made.id);
    setStatus(`Version “${made.name}” made again.`);
    await reload();
  }

  // A version deleted elsewhere stays listed while its editor is open, to make it again.
  const deleted = open?.deleted ?? null;
  const rows =
    versions && deleted && !versions.some((version) => version.id === deleted.id)
      ? [...versions, deleted]
      : versions;
  const metas = (rows ?? []).map(
    (version) =>
      (version.id === deleted?.id ? "Deleted in another tab or app" : shownOf(version, resume)) +
      (version.headline ? ` · “${version.headline}”` : ""),
  );
  const names = distinctNames(
    (rows ?? []).map((version, index) => ({ title: version.name, meta: metas[index]! })),
  );

  return (
    <div data-testid="versions">
      <form aria-label="New version" onSubmit={(event) => void create(event)} noValidate>
        <label htmlFor="version-new-name" className="required">
          Name of the new version
        </label>
        <div className="row">
          <input
            ref={newNameRef}
            id="version-new-name"
            value={name}
            maxLength={100}
            required
            placeholder="Backend roles"
            onChange={(event) => setName(event.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "version-new-name-error" : undefined}
          />
          <button type="submit">Create version</button>
        </div>
        {nameError && (
          <p id="version-new-name-error" className="field-error">
            {nameError}
          </p>
        )}
      </form>
      <p className="status" role="status" aria-live="polite">
        {status}
      </p>
      {rows && rows.length === 0 && <p className="status">No versions yet.</p>}
      {rows && rows.length > 0 && (
        <ul className="entries" aria-label="Your versions" ref={listRef}>
          {rows.map((version, index) => {
            const gone = version.id === deleted?.id;
            return (
              <li key={version.id} data-testid="version">
                <span className="entry-title">
                  {version.name}
                  <span className="entry-meta">{metas[index]}</span>
                </span>
                {!gone && (
                  <span className="row entry-actions">
                    <button
                      type="button"
                      className="secondary"
                      data-opens={version.id}
                      aria-expanded={openId === version.id}
                      aria-label={`Edit ${names[index]}`}
                      // Opens it, never closes it: a version just made is open, and "Edit" must not shut it.
                      onClick={() => {
                        if (openId !== version.id && mayLeaveOpenVersion()) setOpenId(version.id);
                      }}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Delete ${names[index]}`}
                      onClick={() => void remove(version)}
                    >
                      Delete
                    </button>
                  </span>
                )}
                {openId === version.id && (
                  <VersionEditor
                    version={version}
                    resume={resume}
                    {...(gone ? { deleted: true } : {})}
                    onSaved={(saved) => {
                      setVersions((current) => current?.map((v) => (v.id === saved.id ? saved : v)) ?? null);
                    }}
                    onChangedElsewhere={() => void reload()}
                    onDeletedElsewhere={() => {
                      setOpen({ id: version.id, deleted: version });
                      void reload();
                    }}
                    onMadeAgain={(made) => void madeAgain(made)}
                    onClose={() => close(version)}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/**
 * What deleting a version takes from the people it was sent to: its links
 * that still work, and how often they were opened. Said in general when the
 * links cannot be read, rather than not asking.
 */
async function whatItsLinksLose(version: TailoredVersion): Promise<string> {
  let links: ShareLink[];
  try {
    links = (await api.links.list.query({ id: version.id })).items;
  } catch {
    return "Its links stop working at once.";
  }
  const live = links.filter((link) => !hasExpired(link.expires_at));
  if (live.length === 0) return "It has no working share link.";
  const views = live.reduce((sum, link) => sum + link.views, 0);
  const opened = `opened ${views} time${views === 1 ? "" : "s"}`;
  return live.length === 1
    ? `Its working share link (${opened}) stops working at once.`
    : `Its ${live.length} working share links (${opened} in all) stop working at once.`;
}

"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { SHARE_LINK_NAME_LENGTH, type ShareLink } from "@app/resume/client";
import { distinctNames } from "./distinct-names.ts";
import { hasExpired, localDay } from "./local-dates.ts";
import { focusNeighbourOf } from "./neighbour-of.ts";
import { useEditorSession } from "./editor-session.tsx";
import { api, forgetIdempotencyKey, idempotencyKeyFor } from "./trpc.ts";
import { useFailureHandler } from "./use-failure-handler.ts";

/** Expiry choices of a new link, in days; null: until revoked. */
const EXPIRY_CHOICES: (number | null)[] = [null, 7, 30, 90, 365];
const viewsOf = (n: number) => (n === 1 ? "1 view" : `${n} views`);

/**
 * What each link is called in its label and its buttons' names: "for" its
 * name, else its number (oldest 1), with the day it was made; where two are
 * still alike, their place among them too.
 */
const linkTitles = (links: readonly ShareLink[]) =>
  distinctNames(
    links.map((link, i) => ({
      title: `${link.name === null ? links.length - i : `for ${link.name}`}, made ${localDay(link.created_at)}`,
      meta: "",
    })),
  );

/**
 * A version's share links (docs/resume-api.md, "Share links"): make one, copy
 * it, see its views, revoke it. The address is shown in a read-only field, so
 * it can be selected and copied by hand where the clipboard is not allowed.
 * An expired link stays listed until revoked (and keeps its place among the
 * version's 10), so it says so and offers no Copy: sent, it would show nothing.
 */
export function ShareLinksList({ versionId, versionName }: { versionId: string; versionName: string }) {
  const { userId } = useEditorSession();
  const createKey = `create:${userId}:link`;
  const handleFailure = useFailureHandler();
  const [links, setLinks] = useState<ShareLink[] | null>(null);
  const [expiry, setExpiry] = useState<number | null>(null);
  const [name, setName] = useState("");
  const [status, setStatus] = useState("");
  const listRef = useRef<HTMLUListElement>(null);
  const createRef = useRef<HTMLButtonElement>(null);

  const reload = useCallback(async () => {
    try {
      setLinks((await api.links.list.query({ id: versionId })).items);
    } catch (error) {
      setStatus(handleFailure(error).message);
    }
  }, [versionId, handleFailure]);

  useEffect(() => {
    void reload();
  }, [reload]);

  async function create() {
    const input = { id: versionId, expires_in_days: expiry, name: name.trim() || null };
    // The same key while the choices are the same: making it again after a failure whose answer was lost
    // gets that link, not a second one.
    try {
      await api.links.create.mutate(input, {
        context: { headers: { "idempotency-key": idempotencyKeyFor(createKey, input) } },
      });
      forgetIdempotencyKey(createKey);
      setName("");
      setStatus("Link made: copy it and send it.");
      await reload();
    } catch (error) {
      setStatus(handleFailure(error).message);
    }
  }

  async function copy(link: ShareLink, field: HTMLInputElement | null) {
    try {
      await navigator.clipboard.writeText(link.url);
      setStatus("Link copied to the clipboard.");
    } catch {
      field?.select();
      setStatus("Copying was not allowed here: the link is selected, copy it with Ctrl+C.");
    }
  }

  async function rename(link: ShareLink) {
    const entered = window.prompt(
      "Whom is this link for? Only you see its name (empty: no name).",
      link.name ?? "",
    );
    if (entered === null) return;
    try {
      const renamed = await api.links.rename.mutate({
        id: link.id,
        name: entered,
      });
      setStatus(
        renamed.name === null ? "The link's name was cleared." : `The link is now for ${renamed.name}.`,
      );
    } catch (error) {
      const failure = handleFailure(error);
      if (failure.kind !== "gone") return setStatus(failure.message);
      setStatus("That link was revoked in another tab or app.");
    }
    await reload();
  }

  async function revoke(link: ShareLink) {
    const which = link.name === null ? "this link" : `the link for ${link.name}`;
    if (!window.confirm(`Revoke ${which}? Whoever has it sees nothing from now on.`)) return;
    let done = "Link revoked.";
    try {
      await api.links.revoke.mutate({ id: link.id });
    } catch (error) {
      const failure = handleFailure(error);
      if (failure.kind !== "gone") return setStatus(failure.message);
      done = "That link was already revoked in another tab or app.";
    }
    // The list is read again below, showing what a create whose answer was lost made: from now on
    // creating is a new create, not that one's answer again (which may be the link just revoked).
    forgetIdempotencyKey(createKey);
    setStatus(done);
    // The focus was on the Revoke button that goes with its link: a neighbour's Revoke takes it, else Create link.
    focusNeighbourOf(links, link.id, {
      list: listRef.current,
      attribute: "data-revokes",
      fallback: createRef.current,
    });
    await reload();
  }

  const headingId = `links-${versionId}`;
  return (
    <section aria-labelledby={headingId} data-testid="share-links">
      <h4 id={headingId}>Share links</h4>
      <p className="status" id={`links-hint-${versionId}`}>
        Anyone with a link sees this version, without signing in. Name a link after the person you send it to:
        only you see its name, in this list.
      </p>
      <div className="row">
        <label htmlFor={`link-name-${versionId}`} className="inline-label">
          Link for
        </label>
        <input
          id={`link-name-${versionId}`}
          value={name}
          maxLength={SHARE_LINK_NAME_LENGTH}
          placeholder="e.g. Acme, Jane Doe"
          aria-describedby={`links-hint-${versionId}`}
          onChange={(event) => setName(event.target.value)}
        />
        <label htmlFor={`link-expiry-${versionId}`} className="inline-label">
          Expires
        </label>
        <select
          id={`link-expiry-${versionId}`}
          value={expiry ?? ""}
          style={{ width: "auto" }}
          onChange={(event) => setExpiry(event.target.value ? Number(event.target.value) : null)}
        >
          {EXPIRY_CHOICES.map((days) => (
            <option key={days ?? "never"} value={days ?? ""}>
              {days ? `after ${days} days` : "never (until revoked)"}
            </option>
          ))}
        </select>
        <button type="button" ref={createRef} onClick={() => void create()}>
          Create link
        </button>
      </div>
      <p className="status" role="status" aria-live="polite">
        {status}
      </p>
      {links && links.length === 0 && <p className="status">No links yet.</p>}
      {links && links.length > 0 && (
        <ul className="entries" aria-label={`Links to ${versionName}`} ref={listRef}>
          {linkTitles(links).map((made, i) => {
            const link = links[i]!;
            const fieldId = `link-url-${link.id}`;
            // "Link …" in the label, "link …" in the buttons' names: lowercased whole, the month would be too.
            const expired = hasExpired(link.expires_at);
            return (
              <li key={link.id} data-testid="share-link" style={{ display: "block" }}>
                {expired ? (
                  <span className="link-label">Link {made}</span>
                ) : (
                  <label htmlFor={fieldId}>Link {made}</label>
                )}
                <div className="row">
                  {expired ? (
                    // Not in a field, nor with Copy: the address is shown to tell which link it was, not to be sent.
                    <span className="expired-url">{link.url}</span>
                  ) : (
                    <>
                      <input id={fieldId} readOnly value={link.url} spellCheck={false} />
                      <button
                        type="button"
                        aria-label={`Copy link ${made}`}
                        onClick={(event) =>
                          void copy(link, event.currentTarget.parentElement?.querySelector("input") ?? null)
                        }
                      >
                        Copy
                      </button>
                    </>
                  )}
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Rename link ${made}`}
                    onClick={() => void rename(link)}
                  >
                    Rename
                  </button>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Revoke ${expired ? "expired " : ""}link ${made}`}
                    data-revokes={link.id}
                    onClick={() => void revoke(link)}
                  >
                    Revoke
                  </button>
                </div>
                <span className="entry-meta">
                  {viewsOf(link.views)}
                  {link.last_viewed_at !== null && (
                    <>
                      {" "}
                      (last <time dateTime={link.last_viewed_at}>{localDay(link.last_viewed_at)}</time>)
                    </>
                  )}{" "}
                  ·{" "}
                  {link.expires_at === null ? (
                    "never expires"
                  ) : expired ? (
                    <strong className="expired">
                      expired <time dateTime={link.expires_at}>{localDay(link.expires_at)}</time> — no longer
                      works; revoke it to free its place
                    </strong>
                  ) : (
                    <>
                      expires <time dateTime={link.expires_at}>{localDay(link.expires_at)}</time>
                    </>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

"use client";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import type { AccessToken, TokenScope } from "@app/resume/client";
import { hasExpired, localDay } from "./local-dates.ts";
import { focusNeighbourOf } from "./neighbour-of.ts";
import { api, isNotFound } from "./trpc.ts";
import { useFailureHandler } from "./use-failure-handler.ts";

const EXPIRY_DAYS = [7, 30, 90, 365];
const SCOPE_CHOICES: { scope: TokenScope; label: string }[] = [
  { scope: "resume:read", label: "Read my resume" },
  { scope: "resume:write", label: "Read and change my resume" },
];

/**
 * Personal access tokens for scripts and REST clients (docs/resume-api.md,
 * "Personal access tokens"): make one, see its secret once and copy it, list, revoke.
 * An expired token stays listed until revoked (and counts toward the cap), so it says so.
 * Loaded only when opened.
 */
export default function AccessTokensPanel() {
  const handleFailure = useFailureHandler();
  const [tokens, setTokens] = useState<AccessToken[] | null>(null);
  const [name, setName] = useState("");
  const [scope, setScope] = useState<TokenScope>("resume:read");
  const [days, setDays] = useState(90);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [status, setStatus] = useState("");
  const secretRef = useRef<HTMLInputElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const createRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  // Opened by its button, which is gone now: the new token's name takes the focus.
  useEffect(() => nameRef.current?.focus(), []);

  const fail = useCallback(
    (error: unknown) => {
      const failure = handleFailure(error);
      setFieldErrors(failure.fieldErrors);
      setStatus(failure.message);
    },
    [handleFailure],
  );

  const reload = useCallback(async () => {
    try {
      setTokens((await api.tokens.list.query()).items);
    } catch (error) {
      fail(error);
    }
  }, [fail]);

  useEffect(() => {
    void reload();
  }, [reload]);

  useEffect(() => {
    if (created) secretRef.current?.select();
  }, [created]);

  async function create(event: FormEvent) {
    event.preventDefault();
    setFieldErrors({});
    try {
      const made = await api.tokens.create.mutate({ name, scopes: [scope], expires_in_days: days });
      setCreated({ name: made.name, token: made.token });
      setName("");
      setStatus(`Token “${made.name}” made. Copy it now: it is not shown again.`);
      await reload();
    } catch (error) {
      fail(error);
    }
  }

  async function revoke(token: AccessToken) {
    if (!window.confirm(`Revoke “${token.name}”? Programs using it stop working at once.`)) return;
    let done = `Token “${token.name}” revoked.`;
    try {
      await api.tokens.revoke.mutate({ id: token.id });
    } catch (error) {
      if (!isNotFound(error)) return fail(error);
      done = `Token “${token.name}” was already revoked in another tab or app.`;
    }
    setStatus(done);
    // The focus was on the Revoke button that goes with its token: a neighbour's Revoke takes it, else Create token.
    focusNeighbourOf(tokens, token.id, {
      list: listRef.current,
      attribute: "data-revokes",
      fallback: createRef.current,
    });
    await reload();
  }

  async function copy(token: string) {
    try {
      await navigator.clipboard.writeText(token);
      setStatus("Copied to the clipboard.");
    } catch {
      secretRef.current?.select();
      setStatus("Copying was not allowed here: the token is selected, copy it with Ctrl+C.");
    }
  }

  return (
    <div data-testid="access-tokens">
      <form aria-label="New API token" onSubmit={(event) => void create(event)} noValidate>
        <div className="grid">
          <div>
            <label htmlFor="token-name" className="required">
              Token name
            </label>
            <input
              ref={nameRef}
              id="token-name"
              value={name}
              maxLength={100}
              required
              onChange={(event) => setName(event.target.value)}
              aria-invalid={fieldErrors.name ? true : undefined}
              aria-describedby={fieldErrors.name ? "token-name-error" : undefined}
            />
            {fieldErrors.name && (
              <p id="token-name-error" className="field-error">
                {fieldErrors.name}
              </p>
            )}
          </div>
          <div>
            <label htmlFor="token-expiry">Expires after</label>
            <select id="token-expiry" value={days} onChange={(event) => setDays(Number(event.target.value))}>
              {EXPIRY_DAYS.map((d) => (
                <option key={d} value={d}>
                  {d} days
                </option>
              ))}
            </select>
          </div>
        </div>
        <fieldset className="plain">
          <legend>Access</legend>
          {SCOPE_CHOICES.map((choice) => (
            <label key={choice.scope} className="inline">
              <input
                type="radio"
                name="token-scope"
                checked={scope === choice.scope}
                onChange={() => setScope(choice.scope)}
              />
              {choice.label}
            </label>
          ))}
        </fieldset>
        <div className="actions">
          <button type="submit" ref={createRef}>
            Create token
          </button>
        </div>
      </form>

      {created && (
        <div className="notice" style={{ marginTop: "1rem" }}>
          <label htmlFor="token-secret">Token “{created.name}”: shown only now</label>
          <div className="row">
            <input id="token-secret" ref={secretRef} readOnly value={created.token} spellCheck={false} />
            <button type="button" onClick={() => void copy(created.token)}>
              Copy
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setCreated(null);
                // The notice goes with its Done: the focus goes back to the button that made it.
                createRef.current?.focus();
              }}
            >
              Done
            </button>
          </div>
          <p className="status">
            Send it as <code>Authorization: Bearer &lt;token&gt;</code> to <code>/me/*</code>.
          </p>
        </div>
      )}

      <p className="status" role="status" aria-live="polite">
        {status}
      </p>

      {tokens && tokens.length === 0 && <p className="status">No tokens yet.</p>}
      {tokens && tokens.length > 0 && (
        <ul className="entries" aria-label="Your API tokens" ref={listRef}>
          {tokens.map((token) => {
            const expired = hasExpired(token.expires_at);
            return (
              <li key={token.id} data-testid="access-token">
                <span className="entry-title">
                  {token.name}
                  <span className="entry-meta">
                    {token.scopes.includes("resume:write") ? "read and change" : "read only"} · made{" "}
                    <time dateTime={token.created_at}>{localDay(token.created_at)}</time> ·{" "}
                    {token.last_used_at ? (
                      <>
                        last used <time dateTime={token.last_used_at}>{localDay(token.last_used_at)}</time>
                      </>
                    ) : (
                      "never used"
                    )}{" "}
                    ·{" "}
                    {expired ? (
                      <strong className="expired">
                        expired <time dateTime={token.expires_at}>{localDay(token.expires_at)}</time> — no
                        longer works; revoke it to free its place
                      </strong>
                    ) : (
                      <>
                        expires <time dateTime={token.expires_at}>{localDay(token.expires_at)}</time>
                      </>
                    )}
                  </span>
                </span>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Revoke ${expired ? "expired token " : ""}${token.name}`}
                  data-revokes={token.id}
                  onClick={() => void revoke(token)}
                >
                  Revoke
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

"use client";
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { flushSync } from "react-dom";
import { COLLECTIONS, THEME_NAMES, type WholeResume } from "@app/resume/client";
import { CollectionSection } from "./collection-section.tsx";
import { DownloadMenu } from "./download-menu.tsx";
import { ConfirmationProvider } from "./editor-confirmation.tsx";
import { EditorSessionProvider, useEditorSession } from "./editor-session.tsx";
import { EditorTabs, panelProps, type EditorTab } from "./editor-tabs.tsx";
import { MoreMenu } from "./more-menu.tsx";
import { ProfileForm } from "./profile-form.tsx";
import { ResumePreview } from "./resume-preview.tsx";
import { ThemePreview } from "./theme-preview.tsx";
import { api } from "./trpc.ts";
import { useFailureHandler } from "./use-failure-handler.ts";
import { useMediaQuery } from "./use-media-query.ts";
import { useRememberedPreviewStyle, type PreviewStyle } from "./use-remembered-preview-style.ts";
import { draftIdsUnder, forgetDrafts, leaveKeepingDrafts } from "./use-session-draft.ts";
import { versionDraftPrefix } from "./version-draft-prefix.ts";

/**
 * The phone layout: Edit and Preview tabs and a one-row toolbar. The same
 * width as the stylesheet's phone rules; on screens only, as a printed page
 * is narrow too and prints the preview whatever the tab.
 */
const PHONE = "screen and (max-width: 768px)";

// Loaded when first opened, so that the editor's first load stays small.
const ImportResumePanel = lazy(() => import("./import-resume-panel.tsx"));
const AccessTokensPanel = lazy(() => import("./access-tokens-panel.tsx"));
const VersionsPanel = lazy(() => import("./versions-panel.tsx"));

/**
 * `account` is the signed-in person's corner of the top bar: the local
 * sign-in's name and sign-out button, or Clerk's user menu. The session
 * (who is signed in, whether it expired) is provided here, once, for every
 * form and panel below.
 */
export function Editor({ userId, account }: { userId: string; account: ReactNode }) {
  return (
    <EditorSessionProvider userId={userId}>
      <ConfirmationProvider>
        <EditorContent account={account} />
      </ConfirmationProvider>
    </EditorSessionProvider>
  );
}

function EditorContent({ account }: { account: ReactNode }) {
  const { userId, expired } = useEditorSession();
  const handleFailure = useFailureHandler();
  const [resume, setResume] = useState<WholeResume | null>(null);
  const [markdown, setMarkdown] = useState("");
  const [problem, setProblem] = useState("");
  const [importing, setImporting] = useState(false);
  const [showTokens, setShowTokens] = useState(false);
  // Open at once when a version's draft was kept from before (a reload, a sign-in): its editor opens in it.
  const [showVersions, setShowVersions] = useState(
    () => draftIdsUnder(versionDraftPrefix(userId)).length > 0,
  );
  /** Where focus goes when the import panel closes: the Import… button, or on a phone the More… button. */
  const importOpener = useRef<HTMLElement | null>(null);
  const phone = useMediaQuery(PHONE);
  const [tab, setTab] = useState<EditorTab>("edit");
  const [previewStyle, setPreviewStyle] = useRememberedPreviewStyle(userId);
  const [themedHtml, setThemedHtml] = useState("");
  const themeFrame = useRef<HTMLIFrameElement>(null);
  /**
   * The forms' key: each form reads the resume once, when it mounts, so a
   * replaced resume gives them a new key and they start again from it.
   */
  const [formsGeneration, setFormsGeneration] = useState(0);

  /** Reads the resume again; true when it was read. */
  const reload = useCallback(async () => {
    const [json, md] = await Promise.allSettled([
      api.resume.get.query({ format: "json" }),
      api.resume.get.query({ format: "markdown" }),
    ]);
    // The resume as read, even when its Markdown was not made (the server busy making files): the
    // forms and lists follow the data, and only the preview waits for the next read.
    // The procedure answers the whole resume for format=json, and a string exactly for format=markdown.
    if (json.status === "fulfilled" && typeof json.value !== "string") setResume(json.value as WholeResume);
    if (md.status === "fulfilled" && typeof md.value === "string") setMarkdown(md.value);
    const failed = [json, md].find((read) => read.status === "rejected");
    setProblem(failed ? handleFailure(failed.reason).message : "");
    return json.status === "fulfilled";
  }, [handleFailure]);

  /** After an import: every form and its draft start again from the new resume, not the old one. */
  const reloadReplaced = useCallback(async () => {
    // At once, so that not even a failed reload leaves a draft of the old resume to reopen later,
    forgetDrafts(`draft:${userId}:`);
    if (!(await reload())) return;
    // and again, as the forms still open on the old resume may have written theirs meanwhile.
    forgetDrafts(`draft:${userId}:`);
    setFormsGeneration((generation) => generation + 1);
  }, [reload, userId]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // The themed page follows the resume: fetched again after every change, as the Markdown is.
  useEffect(() => {
    if (previewStyle === "markdown" || !resume) return;
    let current = true;
    api.resume.get
      .query({ format: "html", theme: previewStyle })
      .then((html) => {
        if (current && typeof html === "string") setThemedHtml(html);
      })
      .catch((error: unknown) => setProblem(handleFailure(error).message));
    return () => {
      current = false;
    };
  }, [previewStyle, resume, handleFailure]);

  function startImport() {
    importOpener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The panel is among the forms: on a phone, chosen from the Preview tab (where the empty
    // preview points to Import…), it would open in the hidden Edit tab, unseen and unfocused.
    if (phone) flushSync(() => setTab("edit"));
    // Open already, perhaps out of sight: its file field takes the focus, as when the panel opens.
    if (importing) document.getElementById("import-file")?.focus();
    else setImporting(true);
  }

  function print() {
    const frame = themeFrame.current?.contentWindow;
    if (previewStyle !== "markdown" && frame) frame.print();
    else window.print();
  }

  return (
    <>
      <header className="topbar">
        {expired ? <p>Session expired</p> : account}
        <div className="row toolbar-actions">
          <DownloadMenu
            theme={previewStyle === "markdown" ? null : previewStyle}
            personName={resume?.profile?.name ?? ""}
            disabled={!resume}
            onProblem={setProblem}
          />
          {/* On a phone these two go in the More… menu (the stylesheet shows one or the other). */}
          <button
            type="button"
            className="secondary wide-only"
            disabled={!resume}
            aria-expanded={importing}
            onClick={startImport}
          >
            Import…
          </button>
          <button type="button" className="secondary wide-only" onClick={print}>
            Print / Save as PDF
          </button>
          <MoreMenu
            className="phone-only"
            items={[
              { label: "Import…", disabled: !resume, onSelect: startImport },
              { label: "Print / Save as PDF", onSelect: print },
            ]}
          />
        </div>
      </header>
      {expired && (
        <p className="notice no-print" role="alert" style={{ maxWidth: "78rem", margin: "1rem auto" }}>
          Your session has expired.{" "}
          <a href={`/sign-in?next=/editor&user=${encodeURIComponent(userId)}`} onClick={leaveKeepingDrafts}>
            Sign in again
          </a>
          : what you typed is kept and will be here.
        </p>
      )}
      {problem && !expired && (
        <p className="form-error no-print" role="alert" style={{ maxWidth: "78rem", margin: "1rem auto" }}>
          {problem}
        </p>
      )}
      <main className="layout">
        {phone && <EditorTabs selected={tab} onSelect={setTab} />}
        <div className="editing" {...(phone ? panelProps("edit", tab) : {})}>
          <h1>Your resume</h1>
          {importing && resume && (
            <Suspense fallback={<p className="status">Loading…</p>}>
              <ImportResumePanel
                resume={resume}
                onImported={() => void reloadReplaced()}
                onClose={() => {
                  setImporting(false);
                  importOpener.current?.focus();
                }}
              />
            </Suspense>
          )}
          {resume ? (
            <>
              <ProfileForm key={formsGeneration} profile={resume.profile} onChanged={() => void reload()} />
              {COLLECTIONS.map((c) => (
                <CollectionSection
                  key={`${c.name}-${formsGeneration}`}
                  collection={c.name}
                  entries={resume[c.name]}
                  onChanged={() => void reload()}
                />
              ))}
              <section className="card no-print" aria-labelledby="versions-heading">
                <h2 id="versions-heading">Versions</h2>
                <p className="status">
                  A version shows some of your entries, for one kind of job, and can be shared by a link
                  anyone can open. Edits to an entry show in every version that has it.
                </p>
                {showVersions ? (
                  <Suspense fallback={<p className="status">Loading…</p>}>
                    <VersionsPanel resume={resume} />
                  </Suspense>
                ) : (
                  <button type="button" className="secondary" onClick={() => setShowVersions(true)}>
                    Manage versions
                  </button>
                )}
              </section>
              <section className="card no-print" aria-labelledby="tokens-heading">
                <h2 id="tokens-heading">API tokens</h2>
                <p className="status">
                  Personal access tokens let your own scripts and apps read or change this resume through the
                  REST API (<a href="/docs">/docs</a>).
                </p>
                {showTokens ? (
                  <Suspense fallback={<p className="status">Loading…</p>}>
                    <AccessTokensPanel />
                  </Suspense>
                ) : (
                  <button type="button" className="secondary" onClick={() => setShowTokens(true)}>
                    Manage API tokens
                  </button>
                )}
              </section>
            </>
          ) : (
            <p className="status">Loading…</p>
          )}
        </div>
        <div className="preview-pane" {...(phone ? panelProps("preview", tab) : {})}>
          <div className="row no-print preview-heading">
            <h2>Preview</h2>
            <span className="style-choice">
              <label htmlFor="preview-style" className="inline-label">
                Style
              </label>
              <select
                id="preview-style"
                value={previewStyle}
                onChange={(event) => {
                  setThemedHtml("");
                  setPreviewStyle(event.target.value as PreviewStyle);
                }}
              >
                <option value="markdown">Markdown</option>
                {THEME_NAMES.map((name) => (
                  <option key={name} value={name}>
                    Theme: {name}
                  </option>
                ))}
              </select>
            </span>
          </div>
          {resume && isEmptyResume(resume) && (
            <p className="field-hint no-print" data-testid="preview-empty">
              Nothing here yet: fill in your profile and sections and your resume shows here, or start from a
              file you have with the Import… button.
            </p>
          )}
          {previewStyle === "markdown" ? (
            <ResumePreview markdown={markdown} />
          ) : (
            <ThemePreview theme={previewStyle} html={themedHtml} ref={themeFrame} />
          )}
        </div>
      </main>
    </>
  );
}

/** A new person's resume: no profile and no entry, so the preview has nothing to show but a heading. */
const isEmptyResume = (resume: WholeResume) =>
  resume.profile === null && COLLECTIONS.every((collection) => resume[collection.name].length === 0);

"use client";
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { COLLECTIONS, type WholeResume } from "@app/resume/client";
import { CollectionSection } from "./collection-section.tsx";
import { ProfileForm } from "./profile-form.tsx";
import { ResumePreview } from "./resume-preview.tsx";
import { api, describeFailure } from "./trpc.ts";

// Loaded when first opened, so that the editor's first load stays small.
const ImportResumePanel = lazy(() => import("./import-resume-panel.tsx"));
const AccessTokensPanel = lazy(() => import("./access-tokens-panel.tsx"));

/** Saves `text` as a file the browser downloads. */
function download(filename: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * `account` is the signed-in person's corner of the top bar: the local
 * sign-in's name and sign-out button, or Clerk's user menu.
 */
export function Editor({ userId, account }: { userId: string; account: ReactNode }) {
  const [resume, setResume] = useState<WholeResume | null>(null);
  const [markdown, setMarkdown] = useState("");
  const [problem, setProblem] = useState("");
  const [signedOut, setSignedOut] = useState(false);
  const [importing, setImporting] = useState(false);
  const [showTokens, setShowTokens] = useState(false);
  const importButton = useRef<HTMLButtonElement>(null);

  const reload = useCallback(async () => {
    try {
      const [json, md] = await Promise.all([
        api.resume.get.query({ format: "json" }),
        api.resume.get.query({ format: "markdown" }),
      ]);
      // The procedure answers a string exactly for format=markdown, and the whole resume for format=json.
      if (typeof json === "string" || typeof md !== "string") throw new Error("unexpected resume format");
      setResume(json as WholeResume);
      setMarkdown(md);
      setProblem("");
    } catch (error) {
      const failure = describeFailure(error);
      setProblem(failure.message);
      if (failure.kind === "signed-out") setSignedOut(true);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const onSignedOut = useCallback(() => setSignedOut(true), []);

  async function downloadJsonResume() {
    try {
      const document = await api.resume.get.query({ format: "jsonresume" });
      download("jsonresume.json", "application/json", `${JSON.stringify(document, null, 2)}\n`);
    } catch (error) {
      const failure = describeFailure(error);
      setProblem(failure.message);
      if (failure.kind === "signed-out") setSignedOut(true);
    }
  }

  return (
    <>
      <header className="topbar">
        {account}
        <div className="row">
          <button
            type="button"
            className="secondary"
            disabled={!markdown}
            onClick={() => download("resume.md", "text/markdown", markdown)}
          >
            Download resume.md
          </button>
          <button
            type="button"
            className="secondary"
            disabled={!resume}
            onClick={() =>
              download("resume.json", "application/json", `${JSON.stringify(resume, null, 2)}\n`)
            }
          >
            Download resume.json
          </button>
          <button
            type="button"
            className="secondary"
            disabled={!resume}
            onClick={() => void downloadJsonResume()}
          >
            Download JSON Resume
          </button>
          <button
            type="button"
            className="secondary"
            ref={importButton}
            disabled={!resume}
            aria-expanded={importing}
            onClick={() => setImporting(true)}
          >
            Import…
          </button>
          <button type="button" className="secondary" onClick={() => window.print()}>
            Print / Save as PDF
          </button>
        </div>
      </header>
      {signedOut && (
        <p className="notice no-print" role="alert" style={{ maxWidth: "78rem", margin: "1rem auto" }}>
          Your session has expired. <a href="/sign-in?next=/editor">Sign in again</a>: what you typed is kept
          and will be here.
        </p>
      )}
      {problem && !signedOut && (
        <p className="form-error no-print" role="alert" style={{ maxWidth: "78rem", margin: "1rem auto" }}>
          {problem}
        </p>
      )}
      <main className="layout">
        <div className="editing">
          <h1>Your resume</h1>
          {importing && resume && (
            <Suspense fallback={<p className="status">Loading…</p>}>
              <ImportResumePanel
                resume={resume}
                onImported={() => void reload()}
                onClose={() => {
                  setImporting(false);
                  importButton.current?.focus();
                }}
                onSignedOut={onSignedOut}
              />
            </Suspense>
          )}
          {resume ? (
            <>
              <ProfileForm
                userId={userId}
                profile={resume.profile}
                onSaved={() => void reload()}
                onSignedOut={onSignedOut}
              />
              {COLLECTIONS.map((c) => (
                <CollectionSection
                  key={c.name}
                  collection={c.name}
                  userId={userId}
                  entries={resume[c.name]}
                  onChanged={() => void reload()}
                  onSignedOut={onSignedOut}
                />
              ))}
              <section className="card no-print" aria-labelledby="tokens-heading">
                <h2 id="tokens-heading">API tokens</h2>
                <p className="status">
                  Personal access tokens let your own scripts and apps read or change this resume through the
                  REST API (<a href="/docs">/docs</a>).
                </p>
                {showTokens ? (
                  <Suspense fallback={<p className="status">Loading…</p>}>
                    <AccessTokensPanel onSignedOut={onSignedOut} />
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
        <div>
          <h2 className="no-print">Preview</h2>
          <ResumePreview markdown={markdown} />
        </div>
      </main>
    </>
  );
}

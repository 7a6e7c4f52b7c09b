"use client";
import { useState } from "react";
import { THEME_NAMES, type ThemeName } from "@app/resume/client";
import { useEditorSession } from "./editor-session.tsx";
import { downloadFile } from "./download-file.ts";
import { useDisclosureMenu } from "./use-disclosure-menu.ts";

interface DownloadChoice {
  label: string;
  /** The query of GET /me/resume. */
  query: string;
  /** The file's name when the answer names none (Content-Disposition names PDF and Word files). */
  fileName: string;
}

function choices(theme: ThemeName): DownloadChoice[] {
  return [
    { label: "PDF (A4)", query: "format=pdf&paper=a4", fileName: "resume.pdf" },
    { label: "PDF (US Letter)", query: "format=pdf&paper=letter", fileName: "resume.pdf" },
    { label: "Word (.docx)", query: "format=docx", fileName: "resume.docx" },
    { label: "Plain text (.txt)", query: "format=text", fileName: "resume.txt" },
    { label: "Markdown (.md)", query: "format=markdown", fileName: "resume.md" },
    { label: "JSON Resume (.json)", query: "format=jsonresume", fileName: "jsonresume.json" },
    { label: "Resume data (.json)", query: "format=json", fileName: "resume.json" },
    {
      label: `Themed page: ${theme} (.html)`,
      query: `format=html&theme=${theme}`,
      fileName: `resume-${theme}.html`,
    },
  ];
}

/**
 * One Download menu for every file the resume comes out as, each fetched from
 * the API (GET /me/resume, signed in by the session cookie or the editor's
 * token) and saved as the file the server made. The themed page is the one
 * the preview shows, else the first theme.
 */
export function DownloadMenu({
  theme,
  disabled,
  onProblem,
}: {
  theme: ThemeName | null;
  disabled: boolean;
  onProblem(message: string): void;
}) {
  const { markExpired } = useEditorSession();
  const menu = useDisclosureMenu();
  const [busy, setBusy] = useState<string | null>(null);

  async function download(choice: DownloadChoice) {
    setBusy(choice.label);
    const outcome = await downloadFile(`/me/resume?${choice.query}`, choice.fileName);
    setBusy(null);
    if ("signedOut" in outcome) return markExpired();
    if ("problem" in outcome) return onProblem(outcome.problem);
    onProblem(outcome.notice ?? "");
    menu.close();
  }

  return (
    <div className="menu" {...menu.container}>
      <button type="button" className="secondary" disabled={disabled} {...menu.trigger}>
        Download…
      </button>
      {menu.open && (
        <ul {...menu.list} className="menu-list" aria-label="Download as">
          {choices(theme ?? THEME_NAMES[0]).map((choice) => (
            <li key={choice.label}>
              <button
                type="button"
                className="secondary"
                disabled={busy !== null}
                onClick={() => void download(choice)}
              >
                {busy === choice.label ? `${choice.label}: preparing…` : choice.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

"use client";
import { useState } from "react";
import { resumeFileName, THEME_NAMES, type ThemeName } from "@app/resume/client";
import { useEditorSession } from "./editor-session.tsx";
import { downloadFile } from "./download-file.ts";
import { useDisclosureMenu } from "./use-disclosure-menu.ts";

interface DownloadChoice {
  label: string;
  /** The query of GET /me/resume. */
  query: string;
  /**
   * The file's name when the answer names none (Content-Disposition names PDF
   * and Word files), after the person as those are.
   */
  fileName: string;
}

function choices(theme: ThemeName, personName: string): DownloadChoice[] {
  const named = (extension: string, variant?: string) => resumeFileName(personName, extension, variant);
  return [
    { label: "PDF (A4)", query: "format=pdf&paper=a4", fileName: named("pdf") },
    { label: "PDF (US Letter)", query: "format=pdf&paper=letter", fileName: named("pdf") },
    { label: "Word (.docx)", query: "format=docx", fileName: named("docx") },
    { label: "Plain text (.txt)", query: "format=text", fileName: named("txt") },
    { label: "Markdown (.md)", query: "format=markdown", fileName: named("md") },
    { label: "JSON Resume (.json)", query: "format=jsonresume", fileName: named("json") },
    { label: "Resume data (.json)", query: "format=json", fileName: named("json", "data") },
    {
      label: `Themed page: ${theme} (.html)`,
      query: `format=html&theme=${theme}`,
      fileName: named("html", theme),
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
  personName,
  disabled,
  onProblem,
}: {
  theme: ThemeName | null;
  /** The profile's name, which the files are named after. */
  personName: string;
  disabled: boolean;
  onProblem(message: string): void;
}) {
  const { markExpired } = useEditorSession();
  const menu = useDisclosureMenu();
  const [busy, setBusy] = useState<string | null>(null);

  async function download(choice: DownloadChoice) {
    if (busy !== null) return;
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
          {choices(theme ?? THEME_NAMES[0], personName).map((choice) => (
            <li key={choice.label}>
              <button
                type="button"
                className="secondary"
                // Not disabled: a button disabled while it has the focus drops the focus to the page's start.
                aria-disabled={busy !== null || undefined}
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

import { DomainError } from "@app/rest/errors";
import { LIMITS } from "../limits.ts";
import { renderResumeMarkdown } from "../markdown/render-resume-markdown.ts";
import type { WholeResume } from "../schemas/whole-resume.ts";
import { renderResumeHtml, THEMED_PAGE_POLICY } from "../themes/render-resume-html.ts";
import { THEME_NAMES, type ThemeName } from "../themes/theme-names.ts";
import { attachmentDisposition } from "./attachment-disposition.ts";
import { pdfFontFamilyFor } from "./document-fonts.ts";
import { renderResumeDocx } from "./render-resume-docx.ts";
import { renderResumePdf, type PaperSize } from "./render-resume-pdf.ts";
import { renderResumeText } from "./render-resume-text.ts";
import { outlineTexts, resumeOutline } from "./resume-outline.ts";

export const DOCUMENT_FORMATS = ["pdf", "docx", "text"] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/**
 * Everything renderResumeDocument makes: the documents, and the Markdown and
 * the themed page, which take seconds for a long resume and so are made off
 * the request thread too when it is long (LIMITS.pageTextOnRequestThread).
 */
export type RenderedFormat = DocumentFormat | "markdown" | "html";

/** A page (the Markdown, the themed HTML) rather than a file: made on the request's thread unless long. */
export const isPageFormat = (format: RenderedFormat): format is "markdown" | "html" =>
  format === "markdown" || format === "html";

export const DOCUMENT_MEDIA_TYPES = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  text: "text/plain; charset=utf-8",
} as const satisfies Record<DocumentFormat, string>;

/** At most this many characters are named in X-Unrendered-Characters. */
const UNRENDERED_LISTED = 32;

export interface ResumeDocument {
  body: Buffer | string;
  headers: Record<string, string>;
}

/**
 * The resume as a file people send: the PDF and the Word document as
 * attachments named after the person, plain text inline. A PDF whose text
 * holds characters its fonts cannot draw names them (X-Unrendered-Characters).
 * Or as Markdown, or a page in the theme `theme`. Plain data in and out, so
 * that it can run on a worker thread (apps/web/src/api/document-workers.ts);
 * for the documents, refuseTooLongForDocument comes first.
 */
export async function renderResumeDocument(
  resume: WholeResume,
  format: RenderedFormat,
  paper: PaperSize,
  theme: ThemeName = THEME_NAMES[0],
): Promise<ResumeDocument> {
  if (format === "markdown")
    return {
      body: renderResumeMarkdown(resume),
      headers: { "content-type": "text/markdown; charset=utf-8" },
    };
  if (format === "html")
    return {
      body: await renderResumeHtml(resume, theme),
      headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": THEMED_PAGE_POLICY },
    };
  const outline = resumeOutline(resume);
  const headers: Record<string, string> = { "content-type": DOCUMENT_MEDIA_TYPES[format] };
  switch (format) {
    case "text":
      return { body: renderResumeText(outline), headers };
    case "docx":
      headers["content-disposition"] = attachmentDisposition(resume.profile?.name ?? "", "docx");
      return { body: await renderResumeDocx(outline, paper), headers };
    case "pdf": {
      headers["content-disposition"] = attachmentDisposition(resume.profile?.name ?? "", "pdf");
      const { family, unrendered } = pdfFontFamilyFor(outlineTexts(outline), outline.language);
      if (unrendered.length) {
        const more = unrendered.length - UNRENDERED_LISTED;
        headers["x-unrendered-characters"] =
          unrendered.slice(0, UNRENDERED_LISTED).join(" ") + (more > 0 ? ` and ${more} more` : "");
      }
      return { body: await renderResumePdf(outline, paper, family), headers };
    }
  }
}

/**
 * A resume with more text than LIMITS.documentTextLength is a 422 for the
 * documents (its PDF would take the worker many seconds); its JSON, Markdown
 * and HTML still hold it all.
 */
export function refuseTooLongForDocument(resume: WholeResume): void {
  const length = resumeTextLength(resume);
  if (length > LIMITS.documentTextLength) {
    throw new DomainError(
      422,
      `the resume holds ${length} characters of text; a PDF, Word or text document holds at most ` +
        `${LIMITS.documentTextLength} (about 400 pages). JSON, Markdown and HTML hold it all.`,
      { error: "RESUME_TOO_LONG" },
    );
  }
}

/** The text a document of the resume holds, in characters (code points): an emoji is one, not two. */
export function resumeTextLength(resume: WholeResume): number {
  let length = 0;
  // Measured on the request's thread for every document and page: without the language, which
  // the text's length does not depend on and which is found by reading the text once more.
  for (const text of outlineTexts(resumeOutline(resume, null))) for (const _ of text) length += 1;
  return length;
}

/** How a document is made: here, or on a worker thread. */
export type RenderResumeDocument = typeof renderResumeDocument;

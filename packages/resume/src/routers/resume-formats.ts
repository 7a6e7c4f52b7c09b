import { z } from "zod";
import {
  DOCUMENT_FORMATS,
  DOCUMENT_MEDIA_TYPES,
  isPageFormat,
  refuseTooLongForDocument,
  renderResumeDocument,
  resumeTextLength,
} from "../documents/render-resume-document.ts";
import { PAPER_SIZES } from "../documents/render-resume-pdf.ts";
import { isJsonObject } from "../json-resume/json-resume-mapping.ts";
import type { KeptJsonResume } from "../json-resume/kept-json-resume.ts";
import { toJsonResume } from "../json-resume/to-json-resume.ts";
import { LIMITS } from "../limits.ts";
import { synchronouslyParsed, type RestMeta } from "@app/rest";
import { wholeResumeOutput, type WholeResume } from "../schemas/whole-resume.ts";
import { THEMED_PAGE_POLICY } from "../themes/render-resume-html.ts";
import { THEME_NAMES, type ThemeName } from "../themes/theme-names.ts";
import type { ResumeContext } from "../trpc.ts";

/**
 * The formats a whole resume is answered in, for GET /me/resume and a
 * tailored version's GET /me/versions/{id}/resume alike: one query, one
 * output, one description and one renderer, so the two cannot drift apart.
 */

export const themeParameter = z
  .enum(THEME_NAMES, `must be one of the installed themes: ${THEME_NAMES.join(", ")}`)
  .meta({ description: "With `format=html`: the JSON Resume theme." });

// Not strict: unknown query parameters (cache busters) are ignored.
export const resumeFormatQuery = z.object({
  format: z.enum(["json", "jsonresume", "markdown", "html", ...DOCUMENT_FORMATS]).default("json"),
  theme: themeParameter.default(THEME_NAMES[0]),
  paper: z
    .enum(PAPER_SIZES)
    .default("a4")
    .meta({ description: "With `format=pdf` and `format=docx`: the page size." }),
});

export type ResumeFormatQuery = z.output<typeof resumeFormatQuery>;

/**
 * Any JSON object, answered as it is: a record would drop a `__proto__` key
 * that an imported document had at its top (JSON parsing makes it an own key),
 * and export gives the document back as it was imported.
 */
const jsonResumeOutput = z
  .custom<Record<string, unknown>>((v) => isJsonObject(v) && !Buffer.isBuffer(v))
  .meta({
    id: "JsonResume",
    type: "object",
    propertyNames: { type: "string" },
    additionalProperties: {},
    description: "A JSON Resume 1.0.0 document: https://jsonresume.org/schema",
  });

/** A PDF or Word file: bytes, answered as they are under their own media type. */
const fileOutput = z
  .custom<Buffer>((value) => Buffer.isBuffer(value))
  .meta({ type: "string", format: "binary" });

export const resumeFormatOutput = synchronouslyParsed(
  z.union([wholeResumeOutput, jsonResumeOutput, z.string(), fileOutput]),
);

export const RESUME_FORMATS_DESCRIPTION =
  "`format=json` (default): the profile (null until the first PUT) and every collection in its order. " +
  '`format=jsonresume`: a JSON Resume 1.0.0 document (docs/resume-api.md, "JSON Resume export and import"). ' +
  "`format=markdown`: a conventional resume, user text escaped. " +
  `\`format=html\`: a complete page in the JSON Resume theme \`theme\` (${THEME_NAMES.join(", ")}; ` +
  `default ${THEME_NAMES[0]}) that loads nothing and runs nothing (Content-Security-Policy: ${THEMED_PAGE_POLICY}). ` +
  "`format=pdf` (`paper=a4`, default, or `letter`) and `format=docx`: the file people send, as an attachment " +
  "named `<name>-resume.pdf|docx`; a PDF whose text holds characters its fonts cannot draw lists them in " +
  "`X-Unrendered-Characters`. `format=text`: plain text for application forms, lines of at most 100 characters.";

export const RESUME_FORMATS_REST: Pick<RestMeta, "alternateContent" | "errors" | "successHeaders"> = {
  alternateContent: {
    "text/markdown": { type: "string", description: "A rendered resume." },
    "text/html": { type: "string", description: "A resume page in a JSON Resume theme." },
    [DOCUMENT_MEDIA_TYPES.pdf]: {
      type: "string",
      format: "binary",
      description: "The resume as a PDF.",
    },
    [DOCUMENT_MEDIA_TYPES.docx]: {
      type: "string",
      format: "binary",
      description: "The resume as a Word document.",
    },
    "text/plain": { type: "string", description: "The resume as plain text." },
  },
  errors: {
    422: `RESUME_TOO_LONG: with \`format=pdf|docx|text\`, the resume holds more than ${LIMITS.documentTextLength} characters of text.`,
  },
  successHeaders: {
    "Content-Disposition":
      "With `format=pdf` and `format=docx`: `attachment`, the file named after the person.",
    "X-Unrendered-Characters":
      "With `format=pdf`: the characters (`U+XXXX`) its embedded fonts cannot draw, when there are any.",
  },
};

/**
 * `resume` in the asked format, its media type and other headers set on the
 * answer. `kept` is what a JSON Resume import kept (the whole resume's only).
 */
export async function answerInFormat(
  ctx: Pick<ResumeContext, "response" | "renderDocument">,
  resume: WholeResume,
  {
    format,
    theme,
    paper,
  }: { format: ResumeFormatQuery["format"]; theme: ThemeName; paper: ResumeFormatQuery["paper"] },
  kept?: KeptJsonResume,
) {
  switch (format) {
    case "json":
      return resume;
    case "jsonresume":
      return toJsonResume(resume, kept);
    case "markdown":
    case "html":
    case "pdf":
    case "docx":
    case "text": {
      const page = isPageFormat(format);
      if (!page) refuseTooLongForDocument(resume);
      // A file, or a long resume's page, on a worker (when the server has them): it takes seconds.
      const onWorker = !page || resumeTextLength(resume) > LIMITS.pageTextOnRequestThread;
      const render = (onWorker && ctx.renderDocument) || renderResumeDocument;
      const document = await render(resume, format, paper, theme);
      for (const [name, value] of Object.entries(document.headers)) ctx.response.headers.set(name, value);
      return document.body;
    }
  }
}

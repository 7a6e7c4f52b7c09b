import { z } from "zod";
import {
  DOCUMENT_FORMATS,
  DOCUMENT_MEDIA_TYPES,
  refuseTooLongForDocument,
  renderResumeDocument,
} from "../documents/render-resume-document.ts";
import { PAPER_SIZES } from "../documents/render-resume-pdf.ts";
import { toJsonResume } from "../json-resume/to-json-resume.ts";
import { LIMITS } from "../limits.ts";
import { renderResumeMarkdown } from "../markdown/render-resume-markdown.ts";
import { IMPORT_FORMATS, readResumeImport } from "../read-resume-import.ts";
import { wholeResumeOutput } from "../schemas/whole-resume.ts";
import { replaceWholeResume } from "../store/replace-resume.ts";
import { getWholeResume, getWholeResumeAndKept } from "../store/resume-store.ts";
import { renderResumeHtml, THEMED_PAGE_POLICY } from "../themes/render-resume-html.ts";
import { THEME_NAMES } from "../themes/theme-names.ts";
import { router, userProcedure } from "../trpc.ts";

export const WHOLE_RESUME_PATH = "/me/resume";

const tags = ["resume"];

const jsonResumeOutput = z
  .record(z.string(), z.unknown())
  .meta({ id: "JsonResume", description: "A JSON Resume 1.0.0 document: https://jsonresume.org/schema" });

/** A PDF or Word file: bytes, answered as they are under their own media type. */
const fileOutput = z
  .custom<Buffer>((value) => Buffer.isBuffer(value))
  .meta({ type: "string", format: "binary" });

const importOutput = z
  .object({
    resume: wholeResumeOutput,
    ignored: z.array(z.string()).meta({
      description:
        "Paths of what the document holds and the data model has no field for (`volunteer`, `basics.image`): " +
        "kept as they are and written back by `GET /me/resume?format=jsonresume`.",
    }),
  })
  .meta({ id: "ResumeImported" });

export const resumeRouter = router({
  get: userProcedure
    .meta({
      openapi: {
        method: "GET",
        path: WHOLE_RESUME_PATH,
        tags,
        summary:
          "The whole resume, as JSON, JSON Resume, Markdown, a themed HTML page, PDF, Word or plain text",
        description:
          "`format=json` (default): the profile (null until the first PUT) and every collection in its order. " +
          '`format=jsonresume`: a JSON Resume 1.0.0 document (docs/resume-api.md, "JSON Resume export and import"). ' +
          "`format=markdown`: a conventional resume, user text escaped. " +
          `\`format=html\`: a complete page in the JSON Resume theme \`theme\` (${THEME_NAMES.join(", ")}; ` +
          `default ${THEME_NAMES[0]}) that loads nothing and runs nothing (Content-Security-Policy: ${THEMED_PAGE_POLICY}). ` +
          "`format=pdf` (`paper=a4`, default, or `letter`) and `format=docx`: the file people send, as an attachment " +
          "named `<name>-resume.pdf|docx`; a PDF whose text holds characters its fonts cannot draw lists them in " +
          "`X-Unrendered-Characters`. `format=text`: plain text for application forms, lines of at most 100 characters.",
      },
      rest: {
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
      },
    })
    // Not strict: unknown query parameters (cache busters) are ignored.
    .input(
      z.object({
        format: z.enum(["json", "jsonresume", "markdown", "html", ...DOCUMENT_FORMATS]).default("json"),
        theme: z
          .enum(THEME_NAMES, `must be one of the installed themes: ${THEME_NAMES.join(", ")}`)
          .default(THEME_NAMES[0])
          .meta({ description: "With `format=html`: the JSON Resume theme." }),
        paper: z
          .enum(PAPER_SIZES)
          .default("a4")
          .meta({ description: "With `format=pdf` and `format=docx`: the page size." }),
      }),
    )
    .output(z.union([wholeResumeOutput, jsonResumeOutput, z.string(), fileOutput]))
    .query(async ({ ctx, input }) => {
      if (input.format === "jsonresume") {
        const { resume, kept } = await getWholeResumeAndKept(ctx.db, ctx.userId);
        return toJsonResume(resume, kept);
      }
      const resume = await getWholeResume(ctx.db, ctx.userId);
      switch (input.format) {
        case "json":
          return resume;
        case "markdown":
          ctx.response.headers.set("Content-Type", "text/markdown; charset=utf-8");
          return renderResumeMarkdown(resume);
        case "html":
          ctx.response.headers.set("Content-Type", "text/html; charset=utf-8");
          ctx.response.headers.set("Content-Security-Policy", THEMED_PAGE_POLICY);
          return renderResumeHtml(resume, input.theme);
        case "pdf":
        case "docx":
        case "text": {
          refuseTooLongForDocument(resume);
          const render = ctx.renderDocument ?? renderResumeDocument;
          const document = await render(resume, input.format, input.paper);
          for (const [name, value] of Object.entries(document.headers)) ctx.response.headers.set(name, value);
          return document.body;
        }
      }
    }),

  replace: userProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: WHOLE_RESUME_PATH,
        tags,
        summary: "Replace the whole resume with an imported one",
        description:
          "The body is the service's own whole-resume JSON as GET answers it (`format=json`, default) or a " +
          "JSON Resume document (`format=jsonresume`). Everything stored is replaced in one transaction, all " +
          "or nothing; every rule and limit of the single routes applies, and issue paths use the document's " +
          `own names (\`work[3].startDate\`). Body limit ${LIMITS.importBodyBytes / 1024 / 1024} MiB.`,
      },
      rest: { bodyInput: "document", maxBodyBytes: LIMITS.importBodyBytes },
    })
    .input(
      z.object({
        format: z.enum(IMPORT_FORMATS).default("json"),
        // Checked by readResumeImport, so that every issue names a path of the document itself.
        document: z.unknown().meta({
          type: "object",
          description: "A whole resume (GET /me/resume) or a JSON Resume document.",
        }),
      }),
    )
    .output(importOutput)
    .mutation(async ({ ctx, input }) => {
      const { resume, ignored, kept } = readResumeImport(input.format, input.document);
      return { resume: await replaceWholeResume(ctx.db, ctx.userId, resume, kept), ignored };
    }),
});

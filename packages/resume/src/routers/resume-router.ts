import { z } from "zod";
import { toJsonResume } from "../json-resume/to-json-resume.ts";
import { LIMITS } from "../limits.ts";
import { renderResumeMarkdown } from "../markdown/render-resume-markdown.ts";
import { IMPORT_FORMATS, readResumeImport } from "../read-resume-import.ts";
import { wholeResumeOutput } from "../schemas/whole-resume.ts";
import { replaceWholeResume } from "../store/replace-resume.ts";
import { getWholeResume } from "../store/resume-store.ts";
import { renderResumeHtml, THEMED_PAGE_POLICY } from "../themes/render-resume-html.ts";
import { THEME_NAMES } from "../themes/theme-names.ts";
import { router, userProcedure } from "../trpc.ts";

export const WHOLE_RESUME_PATH = "/me/resume";

const tags = ["resume"];

const jsonResumeOutput = z
  .record(z.string(), z.unknown())
  .meta({ id: "JsonResume", description: "A JSON Resume 1.0.0 document: https://jsonresume.org/schema" });

const importOutput = z
  .object({
    resume: wholeResumeOutput,
    ignored: z.array(z.string()).meta({
      description:
        "Paths of what the document holds and the service does not store (`volunteer`, `basics.phone`).",
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
        summary: "The whole resume, as JSON, JSON Resume, Markdown or a themed HTML page",
        description:
          "`format=json` (default): the profile (null until the first PUT) and every collection in its order. " +
          '`format=jsonresume`: a JSON Resume 1.0.0 document (docs/resume-api.md, "JSON Resume export and import"). ' +
          "`format=markdown`: a conventional resume, user text escaped. " +
          `\`format=html\`: a complete page in the JSON Resume theme \`theme\` (${THEME_NAMES.join(", ")}; ` +
          `default ${THEME_NAMES[0]}) that loads nothing and runs nothing (Content-Security-Policy: ${THEMED_PAGE_POLICY}).`,
      },
      rest: {
        alternateContent: {
          "text/markdown": { type: "string", description: "A rendered resume." },
          "text/html": { type: "string", description: "A resume page in a JSON Resume theme." },
        },
      },
    })
    // Not strict: unknown query parameters (cache busters) are ignored.
    .input(
      z.object({
        format: z.enum(["json", "jsonresume", "markdown", "html"]).default("json"),
        theme: z
          .enum(THEME_NAMES, `must be one of the installed themes: ${THEME_NAMES.join(", ")}`)
          .default(THEME_NAMES[0])
          .meta({ description: "With `format=html`: the JSON Resume theme." }),
      }),
    )
    .output(z.union([wholeResumeOutput, jsonResumeOutput, z.string()]))
    .query(async ({ ctx, input }) => {
      const resume = await getWholeResume(ctx.db, ctx.userId);
      switch (input.format) {
        case "json":
          return resume;
        case "jsonresume":
          return toJsonResume(resume);
        case "markdown":
          ctx.response.headers.set("Content-Type", "text/markdown; charset=utf-8");
          return renderResumeMarkdown(resume);
        case "html":
          ctx.response.headers.set("Content-Type", "text/html; charset=utf-8");
          ctx.response.headers.set("Content-Security-Policy", THEMED_PAGE_POLICY);
          return renderResumeHtml(resume, input.theme);
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
      const { resume, ignored } = readResumeImport(input.format, input.document);
      return { resume: await replaceWholeResume(ctx.db, ctx.userId, resume), ignored };
    }),
});

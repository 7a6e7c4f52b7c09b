import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { IMPORT_FORMATS, readResumeImport } from "../read-resume-import.ts";
import { wholeResumeOutput } from "../schemas/whole-resume.ts";
import { replaceWholeResume } from "../store/replace-resume.ts";
import { getWholeResumeAndKept, getWholeResumeAndVersion } from "../store/resume-store.ts";
import { router, userProcedure } from "../trpc.ts";
import {
  answerInFormat,
  RESUME_FORMATS_DESCRIPTION,
  RESUME_FORMATS_REST,
  resumeFormatOutput,
  resumeFormatQuery,
} from "./resume-formats.ts";

export const WHOLE_RESUME_PATH = "/me/resume";

const tags = ["resume"];

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
        description: RESUME_FORMATS_DESCRIPTION,
      },
      rest: RESUME_FORMATS_REST,
    })
    .input(resumeFormatQuery)
    .output(resumeFormatOutput)
    .query(async ({ ctx, input }) => {
      if (input.format === "jsonresume") {
        const { resume, kept, resumeVersion } = await getWholeResumeAndKept(ctx.db, ctx.userId);
        ctx.response.dataVersion = resumeVersion ?? undefined;
        return answerInFormat(ctx, resume, input, kept);
      }
      const { resume, resumeVersion } = await getWholeResumeAndVersion(ctx.db, ctx.userId);
      ctx.response.dataVersion = resumeVersion ?? undefined;
      return answerInFormat(ctx, resume, input);
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
          "or nothing (what an earlier JSON Resume import kept stays through an import of the service's own " +
          "JSON, which cannot hold it); every rule and limit of the single routes applies, and issue paths use the document's " +
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
      const { resume, ignored, kept, ids } = readResumeImport(input.format, input.document);
      return { resume: await replaceWholeResume(ctx.db, ctx.userId, resume, { kept, ids }), ignored };
    }),
});

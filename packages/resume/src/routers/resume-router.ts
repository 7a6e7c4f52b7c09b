import { z } from "zod";
import { renderResumeMarkdown } from "../markdown/render-resume-markdown.ts";
import { wholeResumeOutput } from "../schemas/whole-resume.ts";
import { getWholeResume } from "../store/resume-store.ts";
import { router, userProcedure } from "../trpc.ts";

export const WHOLE_RESUME_PATH = "/me/resume";

export const resumeRouter = router({
  get: userProcedure
    .meta({
      openapi: {
        method: "GET",
        path: WHOLE_RESUME_PATH,
        tags: ["resume"],
        summary: "The whole resume, as JSON or as a Markdown document",
        description:
          "`format=json` (default): the profile (null until the first PUT) and every collection in its order. " +
          "`format=markdown`: a conventional resume, user text escaped.",
      },
      rest: { alternateContent: { "text/markdown": { type: "string", description: "A rendered resume." } } },
    })
    // Not strict: unknown query parameters (cache busters) are ignored.
    .input(z.object({ format: z.enum(["json", "markdown"]).default("json") }))
    .output(z.union([wholeResumeOutput, z.string()]))
    .query(async ({ ctx, input }) => {
      const resume = await getWholeResume(ctx.db, ctx.userId);
      if (input.format === "json") return resume;
      ctx.response.headers.set("Content-Type", "text/markdown; charset=utf-8");
      return renderResumeMarkdown(resume);
    }),
});

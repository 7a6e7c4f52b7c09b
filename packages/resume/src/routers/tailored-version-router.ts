import { attachmentDisposition } from "../documents/attachment-disposition.ts";
import { z } from "zod";
import {
  ETAG_HEADER,
  idempotencyKeyOf,
  REPLAYED_HEADER,
  retrySafeDescription,
  versionCheckOf,
} from "@app/rest";
import { deletedOutput, idInput } from "../schemas/fields.ts";
import {
  tailoredVersionInput,
  tailoredVersionOutput,
  tailoredVersionReplaceInput,
} from "../schemas/tailored-version.ts";
import {
  createTailoredVersion,
  deleteTailoredVersion,
  getTailoredResume,
  getTailoredVersion,
  listTailoredVersions,
  replaceTailoredVersion,
  TAILORED_VERSIONS_PER_PERSON,
} from "../store/tailored-versions.ts";
import { THEME_NAMES } from "../themes/theme-names.ts";
import { router, userProcedure } from "../trpc.ts";
import { answerCreated, KEY_REUSED_ERROR, RESUME_KEY_HEADER } from "./retry-safe-create.ts";
import {
  answerInFormat,
  RESUME_FORMATS_DESCRIPTION,
  RESUME_FORMATS_REST,
  resumeFormatOutput,
  resumeFormatQuery,
  themeParameter,
} from "./resume-formats.ts";

export const TAILORED_VERSIONS_PATH = "/me/versions";
/** The route template of a version's resume, whose answers the web app keeps in memory. */
export const TAILORED_RESUME_PATH = `${TAILORED_VERSIONS_PATH}/{id}/resume`;

const tags = ["versions"];
const notFound = { 404: "No tailored version with this id belongs to the caller." };
const foreignIds = {
  400: "Validation, or a listed id that is not one of the caller's entries of that collection (the issue names its path, `include.experience.1`).",
};

/** Tailored versions (docs/resume-api.md, "Tailored versions"). */
export const tailoredVersionRouter = router({
  list: userProcedure
    .meta({
      openapi: {
        method: "GET",
        path: TAILORED_VERSIONS_PATH,
        tags,
        summary: "List the caller's tailored versions",
        description: "Oldest first. Lists of entry ids hold only entries that still exist.",
      },
    })
    .output(z.object({ items: z.array(tailoredVersionOutput) }))
    .query(async ({ ctx }) => ({ items: await listTailoredVersions(ctx.db, ctx.userId) })),

  create: userProcedure
    .meta({
      openapi: {
        method: "POST",
        path: TAILORED_VERSIONS_PATH,
        tags,
        summary: "Make a tailored version of the resume",
        description:
          'A view of the one resume: per collection `"all"` (entries added later too) or a list of entry ids; ' +
          "a headline and summary of its own, a theme, the email hidden. Edits to an entry show in every version " +
          `that includes it. At most ${TAILORED_VERSIONS_PER_PERSON} versions. ` +
          retrySafeDescription("making a second version"),
        requestHeaders: RESUME_KEY_HEADER,
      },
      rest: {
        successStatus: 201,
        successHeaders: { Location: "The new version's URL.", ...ETAG_HEADER, ...REPLAYED_HEADER },
        errors: {
          ...foreignIds,
          409: `The caller already has ${TAILORED_VERSIONS_PER_PERSON} versions.`,
          ...KEY_REUSED_ERROR,
        },
      },
    })
    .input(tailoredVersionInput)
    .output(tailoredVersionOutput)
    .mutation(async ({ ctx, input }) => {
      const key = idempotencyKeyOf(ctx.idempotencyKey);
      const created = await createTailoredVersion(ctx.db, ctx.userId, input, key);
      return answerCreated(ctx.response, `${TAILORED_VERSIONS_PATH}/${created.made.id}`, created);
    }),

  get: userProcedure
    .meta({
      openapi: {
        method: "GET",
        path: `${TAILORED_VERSIONS_PATH}/{id}`,
        tags,
        summary: "Get one tailored version",
        description:
          "Its fields; lists of entry ids hold only entries that still exist, in their collection's order.",
      },
      rest: { successHeaders: ETAG_HEADER, errors: notFound },
    })
    .input(idInput)
    .output(tailoredVersionOutput)
    .query(({ ctx, input }) => getTailoredVersion(ctx.db, ctx.userId, input.id)),

  replace: userProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: `${TAILORED_VERSIONS_PATH}/{id}`,
        tags,
        summary: "Replace a tailored version",
        description:
          'Every field, as for entries: left out is null, `false` or `"all"`. ' +
          "With If-Match (the ETag a read gave, or the version's updated_at in quotes), it writes only over that version.",
      },
      rest: { conditional: true, errors: { ...foreignIds, ...notFound } },
    })
    .input(tailoredVersionReplaceInput)
    .output(tailoredVersionOutput)
    .mutation(({ ctx, input }) =>
      replaceTailoredVersion(
        ctx.db,
        ctx.userId,
        input.id,
        input,
        versionCheckOf(ctx.preconditions) ?? undefined,
      ),
    ),

  delete: userProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: `${TAILORED_VERSIONS_PATH}/{id}`,
        tags,
        summary: "Delete a tailored version",
        description:
          "Its share links go with it: their pages are a 404 at once. With If-Match, only if it is still that version.",
      },
      rest: { conditional: true, errors: notFound },
    })
    .input(idInput)
    .output(deletedOutput)
    .mutation(async ({ ctx, input }) => {
      const check = versionCheckOf(ctx.preconditions) ?? undefined;
      await deleteTailoredVersion(ctx.db, ctx.userId, input.id, check);
      return { statusCode: 200 as const, message: `tailored version ${input.id} deleted` };
    }),

  resume: userProcedure
    .meta({
      openapi: {
        method: "GET",
        path: TAILORED_RESUME_PATH,
        tags,
        summary: "A tailored version's resume, in every format of the whole resume",
        description:
          "The version's entries, headline, summary and email, in the formats of GET /me/resume. " +
          "`theme` defaults to the version's theme. A version's JSON Resume is written from its fields alone. " +
          RESUME_FORMATS_DESCRIPTION,
      },
      rest: { ...RESUME_FORMATS_REST, errors: { ...RESUME_FORMATS_REST.errors, ...notFound } },
    })
    .input(
      resumeFormatQuery.extend({
        id: z.uuid("must be a uuid"),
        theme: themeParameter.optional().meta({
          description: `With \`format=html\`: the JSON Resume theme; default the version's, else ${THEME_NAMES[0]}.`,
        }),
      }),
    )
    .output(resumeFormatOutput)
    .query(async ({ ctx, input }) => {
      const { version, resume, resumeVersion } = await getTailoredResume(ctx.db, ctx.userId, input.id);
      ctx.response.dataVersion = resumeVersion ?? undefined;
      const answer = await answerInFormat(ctx, resume, {
        ...input,
        theme: input.theme ?? version.theme ?? THEME_NAMES[0],
      });
      // The owner's files say which version they are; a share link's (public-pages) do not name it.
      if (input.format === "pdf" || input.format === "docx") {
        ctx.response.headers.set(
          "Content-Disposition",
          attachmentDisposition(resume.profile?.name ?? "", input.format, version.name),
        );
      }
      return answer;
    }),
});

import { z } from "zod";
import { idempotencyKeyOf, REPLAYED_HEADER, retrySafeDescription } from "@app/rest";
import { deletedOutput, idInput } from "../schemas/fields.ts";
import { shareLinkInput, shareLinkOutput, shareLinkRenameInput } from "../schemas/share-link.ts";
import {
  createShareLink,
  listShareLinks,
  renameShareLink,
  revokeShareLink,
  SHARE_LINKS_PER_VERSION,
} from "../store/share-links.ts";
import { router, userProcedure } from "../trpc.ts";
import { answerCreated, KEY_REUSED_ERROR, RESUME_KEY_HEADER } from "./retry-safe-create.ts";
import { TAILORED_VERSIONS_PATH } from "./tailored-version-router.ts";

const LINKS_PATH = `${TAILORED_VERSIONS_PATH}/{id}/links`;
const tags = ["versions"];
const LINK_PATH = "/me/links/{id}";
const versionNotFound = { 404: "No tailored version with this id belongs to the caller." };
const linkNotFound = { 404: "No share link with this id belongs to the caller." };

/** Share links of tailored versions (docs/resume-api.md, "Share links"). */
export const shareLinkRouter = router({
  create: userProcedure
    .meta({
      openapi: {
        method: "POST",
        path: LINKS_PATH,
        tags,
        summary: "Make a share link of a tailored version",
        description:
          "Its `url`, `<PUBLIC_URL>/r/<slug>`, opens the version's themed page without signing in (and " +
          "`/r/<slug>.pdf`, `/r/<slug>.docx`). The slug holds 192 random bits. " +
          `At most ${SHARE_LINKS_PER_VERSION} links per version. ` +
          retrySafeDescription("making a second link"),
        requestHeaders: RESUME_KEY_HEADER,
      },
      rest: {
        successStatus: 201,
        successHeaders: { Location: "The link's public page: its `url`.", ...REPLAYED_HEADER },
        errors: {
          ...versionNotFound,
          409: `The version already has ${SHARE_LINKS_PER_VERSION} links.`,
          ...KEY_REUSED_ERROR,
        },
      },
    })
    .input(shareLinkInput)
    .output(shareLinkOutput)
    .mutation(async ({ ctx, input }) => {
      const key = idempotencyKeyOf(ctx.idempotencyKey);
      const link = { name: input.name, expiresInDays: input.expires_in_days };
      const created = await createShareLink(ctx.db, ctx.userId, input.id, link, ctx.publicUrl, key);
      return answerCreated(ctx.response, created.made.url, created);
    }),

  list: userProcedure
    .meta({
      openapi: {
        method: "GET",
        path: LINKS_PATH,
        tags,
        summary: "List a tailored version's share links",
        description:
          "Newest first, with their views (counted a second or so late); expired links stay until revoked.",
      },
      rest: { errors: versionNotFound },
    })
    .input(idInput)
    .output(z.object({ items: z.array(shareLinkOutput) }))
    .query(async ({ ctx, input }) => ({
      items: await listShareLinks(ctx.db, ctx.userId, input.id, ctx.publicUrl),
    })),

  rename: userProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: LINK_PATH,
        tags,
        summary: "Name a share link",
        description:
          "Gives the link a new `name` (null: none), which only its owner sees. Its address, expiry and views stay.",
      },
      rest: { errors: linkNotFound },
    })
    .input(shareLinkRenameInput)
    .output(shareLinkOutput)
    .mutation(({ ctx, input }) => renameShareLink(ctx.db, ctx.userId, input.id, input.name, ctx.publicUrl)),

  revoke: userProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: LINK_PATH,
        tags,
        summary: "Revoke a share link",
        description: "Its page and files are a 404 at once, on every instance.",
      },
      rest: { errors: linkNotFound },
    })
    .input(idInput)
    .output(deletedOutput)
    .mutation(async ({ ctx, input }) => {
      await revokeShareLink(ctx.db, ctx.userId, input.id);
      return { statusCode: 200 as const, message: `share link ${input.id} revoked` };
    }),
});

import { z } from "zod";
import { DomainError } from "@app/rest";
import { deletedOutput, idInput } from "../schemas/fields.ts";
import { accessTokenInput, accessTokenOutput, createdAccessTokenOutput } from "../schemas/access-token.ts";
import {
  ACCESS_TOKENS_PER_PERSON,
  createAccessToken,
  deleteAccessToken,
  getAccessToken,
  listAccessTokens,
} from "../store/access-tokens.ts";
import { router, signedInProcedure } from "../trpc.ts";

const PATH = "/me/tokens";
const tags = ["tokens"];
const notFound = { 404: "No token with this id belongs to the caller." };
const signedInOnly = "Only with the sign-in provider's token: a personal access token gets 403.";
/** Every route here answers it, and tells why (not the writes' "without resume:write"). */
const PERSONAL_TOKEN_REFUSED = { 403: "INSUFFICIENT_SCOPE: a personal access token, whatever its scope." };

/** Personal access tokens (docs/resume-api.md, "Personal access tokens"). */
export const tokenRouter = router({
  list: signedInProcedure
    .meta({
      openapi: {
        method: "GET",
        path: PATH,
        tags,
        summary: "List the caller's personal access tokens",
        description: `Newest first, without the tokens themselves. ${signedInOnly}`,
      },
      rest: { errors: PERSONAL_TOKEN_REFUSED },
    })
    .output(z.object({ items: z.array(accessTokenOutput) }))
    .query(async ({ ctx }) => ({ items: await listAccessTokens(ctx.db, ctx.userId) })),

  create: signedInProcedure
    .meta({
      openapi: {
        method: "POST",
        path: PATH,
        tags,
        summary: "Make a personal access token",
        description:
          "The answer holds the token (`rsm_...`), shown this once: only its SHA-256 is kept. " +
          `Send it as \`Authorization: Bearer <token>\` on /me/*. ${signedInOnly} ` +
          "It takes no Idempotency-Key: a retry cannot be given the first token again.",
      },
      rest: {
        successStatus: 201,
        successHeaders: { Location: "The new token's URL." },
        errors: {
          400: "The body is not valid JSON or fails validation (see `issues`), or an Idempotency-Key was sent.",
          ...PERSONAL_TOKEN_REFUSED,
          409: `The caller already has ${ACCESS_TOKENS_PER_PERSON} tokens.`,
        },
      },
    })
    .input(accessTokenInput)
    .output(createdAccessTokenOutput)
    .mutation(async ({ ctx, input }) => {
      // Its answer is not kept (only the token's hash is), so a key would promise a replay it cannot give.
      if (ctx.idempotencyKey !== null) {
        throw new DomainError(
          400,
          "POST /me/tokens takes no Idempotency-Key: a token is shown once and never kept, so a retry cannot be given it again; send it without one, and revoke a token whose answer was lost",
        );
      }
      const created = await createAccessToken(ctx.db, ctx.userId, input);
      ctx.response.headers.set("Location", `${PATH}/${created.id}`);
      return created;
    }),

  get: signedInProcedure
    .meta({
      openapi: {
        method: "GET",
        path: `${PATH}/{id}`,
        tags,
        summary: "Get one personal access token",
        description: `Its name, scopes and times, not the token. ${signedInOnly}`,
      },
      rest: { errors: { ...PERSONAL_TOKEN_REFUSED, ...notFound } },
    })
    .input(idInput)
    .output(accessTokenOutput)
    .query(({ ctx, input }) => getAccessToken(ctx.db, ctx.userId, input.id)),

  revoke: signedInProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: `${PATH}/{id}`,
        tags,
        summary: "Revoke a personal access token",
        description: `The next request with it is a 401. ${signedInOnly}`,
      },
      rest: { errors: { ...PERSONAL_TOKEN_REFUSED, ...notFound } },
    })
    .input(idInput)
    .output(deletedOutput)
    .mutation(async ({ ctx, input }) => {
      await deleteAccessToken(ctx.db, ctx.userId, input.id);
      return { statusCode: 200 as const, message: `access token ${input.id} revoked` };
    }),
});

/**
 * The resume service's tRPC instance. One router serves the UI (tRPC) and
 * REST (trpc-to-openapi); both transports build the same context.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { AuthenticationError, type VerifiedIdentity } from "@app/auth";
import { isDatabaseUnavailable, type Database } from "@app/db";
import { databaseOutageAs503, formatTrpcError, type ResponseControl, type ServiceMeta } from "@app/rest";

// ---------------------------------------------------------------- context

export interface ResumeContext {
  db: Database;
  /** Who the bearer token names, or why there is no one. */
  identity: VerifiedIdentity | AuthenticationError;
  /** Counts one request of the user: 0 when it is within the rate limit, else the seconds until one would be. */
  takeRateLimit(userId: string): number | Promise<number>;
  /** The request's Idempotency-Key header as sent, if any (creates use it). */
  idempotencyKey: string | null;
  response: ResponseControl;
}

// ---------------------------------------------------------------- instance

const t = initTRPC.context<ResumeContext>().meta<ServiceMeta>().create({ errorFormatter: formatTrpcError });

export const router = t.router;

// ---------------------------------------------------------------- procedures

/** A database that does not answer is a 503, not a 500. */
const databaseErrors = t.middleware(async ({ next }) =>
  databaseOutageAs503(await next(), isDatabaseUnavailable),
);

/**
 * Every resume procedure: a verified caller (401 otherwise; the server adds
 * its WWW-Authenticate) within the per-user rate limit (429 with Retry-After).
 */
export const userProcedure = t.procedure.use(databaseErrors).use(async ({ ctx, next }) => {
  const { identity } = ctx;
  if (identity instanceof AuthenticationError) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: identity.message });
  }
  const retryAfter = await ctx.takeRateLimit(identity.userId);
  if (retryAfter > 0) {
    ctx.response.headers.set("Retry-After", String(retryAfter));
    throw new TRPCError({
      code: "TOO_MANY_REQUESTS",
      message: `too many requests; retry in ${retryAfter} s`,
    });
  }
  return next({ ctx: { ...ctx, userId: identity.userId } });
});

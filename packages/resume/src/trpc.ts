/**
 * The resume service's tRPC instance. One router serves the UI (tRPC) and
 * REST (packages/rest); both transports build the same context.
 */
import { initTRPC, type ProcedureType } from "@trpc/server";
import { AuthenticationError } from "@app/auth";
import { isDatabaseUnavailable, type Database } from "@app/db";
import {
  DomainError,
  domainErrorsForTrpc,
  formatTrpcError,
  hasPreconditions,
  trpcErrorFor,
  type PreconditionHeaders,
  type ResponseControl,
  type ServiceMeta,
} from "@app/rest";
import { insufficientScope, unauthenticated } from "./auth-errors.ts";
import type { RenderResumeDocument } from "./documents/render-resume-document.ts";
import type { TokenScope } from "./schemas/access-token.ts";
import type { WholeResume } from "./schemas/whole-resume.ts";

// ---------------------------------------------------------------- context

/** Who a request acts for, and with what. */
export interface ResumeIdentity {
  userId: string;
  /** A personal access token's scopes; absent for the sign-in provider's token, which may do everything. */
  scopes?: readonly TokenScope[];
}

export interface ResumeContext {
  db: Database;
  /** Who the bearer token names, or why there is no one. */
  identity: ResumeIdentity | AuthenticationError;
  /** Counts one request of the user: 0 when it is within the rate limit, else the seconds until one would be. */
  takeRateLimit(userId: string): number | Promise<number>;
  /** The request's Idempotency-Key header as sent, if any (creates use it). */
  idempotencyKey: string | null;
  /** The request's If-Match, If-None-Match and If-Unmodified-Since as sent (conditional writes use them). */
  preconditions: PreconditionHeaders;
  response: ResponseControl;
  /** Makes the documents, the Markdown and the themed page; without it, renderResumeDocument on this thread. */
  renderDocument?: RenderResumeDocument;
  /** The origin (PUBLIC_URL) of share links' public pages, without a trailing slash. */
  publicUrl: string;
  /**
   * Told of every mutation of the caller (`identity`) before it runs; what it gives back is told its
   * outcome, whatever it is, before the answer goes out (the server forgets the answers it keeps of
   * them, and may build some again, or apply the mutation's change to them, when it succeeded).
   */
  beforeWrite?(): (outcome: WriteOutcome) => void | Promise<void>;
}

/** A mutation's change to the caller's whole resume (GET /me/resume as JSON). */
export type WholeResumeChange = (resume: WholeResume) => WholeResume;

/** What a mutation of the caller came to, with its change when its route declares one (ResumeMeta). */
export type WriteOutcome = { succeeded: false } | { succeeded: true; change?: WholeResumeChange };

export type ResumeMeta = ServiceMeta & {
  /**
   * The change its answer makes to the caller's whole resume, for a mutation
   * that, when it succeeds, moves the caller's resume version exactly once and
   * whose answer says all it changed (PUT /me/profile): a server then applies
   * it to the answer it kept instead of reading the resume again, when its
   * move is the only one since that answer (docs/resume-api.md, "The whole
   * resume from memory"). A mutation that may move the version twice, or not
   * at all, must not declare one.
   */
  wholeResumeChange?: (answer: never) => WholeResumeChange;
  /**
   * Only with the sign-in provider's token (signedInProcedure): a personal
   * access token is refused with 403, before the body is read.
   */
  signedInOnly?: boolean;
};

// ---------------------------------------------------------------- instance

const t = initTRPC.context<ResumeContext>().meta<ResumeMeta>().create({ errorFormatter: formatTrpcError });

export const router = t.router;

// ---------------------------------------------------------------- procedures

/**
 * Every resume procedure: a verified caller (401 otherwise) within the
 * per-user rate limit (429 with Retry-After); a personal access token writes
 * only with `resume:write` (403). A DomainError keeps its status on both
 * transports, and a database that does not answer is a 503, not a 500; a
 * mutation is announced (`beforeWrite`) before it runs, and its outcome
 * before its answer goes out. A write that does not check If-Match and the
 * other preconditions (RestMeta.conditional) refuses them with a 400 rather
 * than write unchecked. One middleware for all: each one tRPC runs copies the
 * call's options twice.
 */
export const userProcedure = t.procedure.use(async ({ ctx, type, meta, next }) => {
  let caller: { userId: string };
  try {
    caller = await admittedCaller(ctx, type, meta);
    if (type === "mutation" && !meta?.rest?.conditional && hasPreconditions(ctx.preconditions)) {
      throw new DomainError(
        400,
        "this write does not check If-Match, If-None-Match or If-Unmodified-Since; send it without them",
      );
    }
  } catch (error) {
    throw trpcErrorFor(error, isDatabaseUnavailable) ?? error;
  }
  const written = type === "mutation" ? ctx.beforeWrite?.() : undefined;
  const result = await next({ ctx: caller });
  // The answer as its output schema made it: the change puts it into the whole resume as a read would.
  await written?.(
    result.ok
      ? { succeeded: true, change: meta?.wholeResumeChange?.(result.data as never) }
      : { succeeded: false },
  );
  return domainErrorsForTrpc(result, isDatabaseUnavailable);
});

async function admittedCaller(
  { identity, takeRateLimit }: ResumeContext,
  type: ProcedureType,
  meta: ResumeMeta | undefined,
) {
  refuseUnlessAdmitted(identity, type, meta);
  const retryAfter = await takeRateLimit(identity.userId);
  if (retryAfter > 0) {
    throw new DomainError(429, `too many requests; retry in ${retryAfter} s`, {
      headers: { "retry-after": String(retryAfter) },
    });
  }
  return { userId: identity.userId };
}

/**
 * 401 without a valid token; 403 for a personal access token on a route only
 * the sign-in provider's token may use, or for a write with a token that may
 * only read. The REST edge asks it before reading the body
 * (RestCall.authorize), so a caller is told so whatever it sent; every
 * procedure asks it again.
 */
export function refuseUnlessAdmitted(
  identity: ResumeContext["identity"],
  type: ProcedureType,
  meta: ResumeMeta | undefined,
): asserts identity is ResumeIdentity {
  if (identity instanceof AuthenticationError) throw unauthenticated(identity);
  if (meta?.signedInOnly && identity.scopes) {
    throw insufficientScope(
      "personal access tokens cannot manage tokens; sign in (the identity provider's token) to do that",
    );
  }
  if (type === "mutation" && identity.scopes && !identity.scopes.includes("resume:write")) {
    throw insufficientScope("this token may only read; writing needs resume:write", "resume:write");
  }
}

/**
 * Routes that manage personal access tokens: only with the sign-in
 * provider's token, so that a leaked personal token cannot make more of
 * itself or outlive its revocation.
 */
export const signedInProcedure = userProcedure.meta({ signedInOnly: true });

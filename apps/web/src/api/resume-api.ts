import type { IncomingMessage, ServerResponse } from "node:http";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";
import { AuthenticationError } from "@app/auth";
import { isDatabaseUnavailable, type Database } from "@app/db";
import {
  createResponseControl,
  createRestHandler,
  failureAnswer,
  readBody,
  restRequestOf,
  type Answer,
  type RestRequest,
} from "@app/rest";
import {
  LIMITS,
  resumeAppRouter,
  resumeOpenApiDocument,
  WHOLE_RESUME_PATH,
  type ResumeContext,
} from "@app/resume";
import { bearerChallenge, type Identify, type Identity } from "./identify";
import type { RateLimiter } from "./rate-limiter";
import type { WholeResumeAnswers } from "./whole-resume-answers";

export interface ResumeApiDeps {
  db: Database;
  identify: Identify;
  rateLimiter: RateLimiter;
  wholeResumeAnswers: WholeResumeAnswers;
  /** Where failures of the service itself go (a 500, a database outage). */
  logError?: (where: string, error: unknown) => void;
}

export interface ResumeApi {
  /** `/me/*` over REST: bearer tokens only. */
  serveRest(req: IncomingMessage): Promise<Answer>;
  /** The same router for the editor, over tRPC's own transport (the session cookie counts too). */
  serveTrpc(req: IncomingMessage, res: ServerResponse, procedurePath: string): Promise<void>;
}

/**
 * The resume API: one router served as REST (packages/rest) and over tRPC.
 * Each request is identified once, counted against the rate limit once, and
 * handed to the procedures in its context; the procedures decide 401 and 429.
 */
export function createResumeApi({
  db,
  identify,
  rateLimiter,
  wholeResumeAnswers,
  logError = (where, error) => console.error(`[resume] ${where}:`, error),
}: ResumeApiDeps): ResumeApi {
  const onProcedureError = (error: unknown, path: string | undefined) => {
    const { code, cause } = error as { code?: string; cause?: unknown };
    if (code === "INTERNAL_SERVER_ERROR" || code === "SERVICE_UNAVAILABLE")
      logError(path ?? "?", cause ?? error);
  };
  const rest = createRestHandler({
    router: resumeAppRouter,
    document: resumeOpenApiDocument,
    maxBodyBytes: LIMITS.bodyBytes,
    onError: onProcedureError,
  });

  const contextOf = (
    identity: Identity,
    takeRateLimit: ResumeContext["takeRateLimit"] = (userId) => rateLimiter.take(userId),
  ): ResumeContext => ({ db, identity, takeRateLimit, response: createResponseControl() });

  async function serveRest(req: IncomingMessage): Promise<Answer> {
    const request = restRequestOf(req);
    let identified: Promise<Identity> | undefined;
    const identity = () => (identified ??= identify(request.headers));
    let answer: Answer;
    try {
      answer =
        request.method === "GET" && pathOf(request.target) === WHOLE_RESUME_PATH
          ? await serveWholeResume(request, await identity())
          : await rest.handle(request, {
              context: async () => contextOf(await identity()),
              readBody: async (limit) => (await readBody(req, limit))?.toString("utf8") ?? null,
            });
    } catch (error) {
      logError(request.target, error);
      return failureAnswer(error, isDatabaseUnavailable);
    }
    if (answer.status === 401) {
      const failure = await identity();
      if (failure instanceof AuthenticationError)
        answer.headers["www-authenticate"] = bearerChallenge(failure);
    }
    return answer;
  }

  /**
   * GET /me/resume, answered from memory while the caller's resume version is
   * the one the kept answer was built from (see whole-resume-answers.ts).
   */
  async function serveWholeResume(request: RestRequest, identity: Identity): Promise<Answer> {
    if (identity instanceof AuthenticationError)
      return rest.handle(request, { context: async () => contextOf(identity) });
    const { userId } = identity;
    const formats = new URLSearchParams(request.target.split("?")[1] ?? "").getAll("format");
    const { version, kept } = await wholeResumeAnswers.lookup(userId, formats);
    const retryAfter = await rateLimiter.take(userId);
    if (kept && retryAfter === 0) return kept;
    // Counted once: the procedure reads the decision taken here (and answers the 429).
    const answer = await rest.handle(request, { context: async () => contextOf(identity, () => retryAfter) });
    if (version !== null && answer.status === 200) wholeResumeAnswers.keep(userId, formats, version, answer);
    return answer;
  }

  function serveTrpc(req: IncomingMessage, res: ServerResponse, procedurePath: string) {
    return nodeHTTPRequestHandler({
      req,
      res,
      path: procedurePath,
      router: resumeAppRouter,
      // The editor may batch a few calls in one request.
      maxBodySize: 4 * LIMITS.bodyBytes,
      createContext: async () =>
        contextOf(await identify(restRequestOf(req).headers, { acceptSessionCookie: true })),
      onError: ({ error, path }) => onProcedureError(error, path),
    });
  }

  return { serveRest, serveTrpc };
}

const pathOf = (target: string) => target.split("?", 1)[0]!;

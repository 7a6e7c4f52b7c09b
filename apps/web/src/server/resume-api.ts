import type { IncomingMessage, ServerResponse } from "node:http";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";
import { AuthenticationError } from "@app/auth";
import { batchCalls, isDatabaseUnavailable, withTimeout } from "@app/db";
import {
  apiErrorBody,
  createResponseControl,
  createRestHandler,
  DATABASE_UNAVAILABLE,
  jsonAnswer,
  readBody,
  restRequestOf,
  type Answer,
  type ResponseControl,
  type RestRequest,
} from "@app/rest";
import {
  API_VERSION,
  createRateLimiter,
  LIMITS,
  readResumeVersions,
  resumeAppRouter,
  resumeOpenApiDocument,
  type ResumeContext,
} from "@app/resume";
import { webEnv } from "~/env";
import { createAnswerCache } from "./answer-cache";
import { identify } from "./auth";
import { database } from "./db";

let rateLimiter: ReturnType<typeof createRateLimiter> | undefined;

function rateLimit() {
  rateLimiter ??= createRateLimiter(webEnv().RATE_LIMIT_PER_MINUTE);
  return rateLimiter;
}

/**
 * The context of every resume procedure, over REST and over tRPC alike. Only
 * the editor's tRPC transport reads the session cookie; REST takes bearer tokens.
 */
async function createResumeContext(
  request: Pick<RestRequest, "headers">,
  response: ResponseControl = createResponseControl(),
  { acceptSessionCookie = false } = {},
): Promise<ResumeContext> {
  return {
    db: database(),
    identity: await identify(request, { acceptSessionCookie }),
    rateLimiter: rateLimit(),
    response,
  };
}

function logApiError(error: unknown, path: string | undefined) {
  const { code, cause } = error as { code?: string; cause?: unknown };
  if (code === "INTERNAL_SERVER_ERROR" || code === "SERVICE_UNAVAILABLE")
    console.error(`[resume] ${path ?? "?"}:`, cause ?? error);
}

const rest = createRestHandler({
  router: resumeAppRouter,
  document: resumeOpenApiDocument,
  createContext: (request, response) => createResumeContext(request, response),
  maxBodyBytes: LIMITS.bodyBytes,
  apiVersion: API_VERSION,
  onError: logApiError,
});

/** How long a request waits for its resume version before the database counts as unavailable. */
const VERSION_TIMEOUT_MS = 1_000;

const resumeVersionOf = batchCalls((userIds: string[]) =>
  withTimeout(readResumeVersions(database(), userIds), VERSION_TIMEOUT_MS),
);
let wholeResumeAnswers: ReturnType<typeof createAnswerCache> | undefined;

/**
 * `/me/*` over REST. GET /me/resume is answered again from memory while the
 * caller's resume version (read from the database on every request, after it
 * arrived, so a write acknowledged by any server is never missed) is the one
 * the kept answer was built from: the whole resume costs PostgreSQL about a
 * millisecond of JSON building and this server more to check and serialise it.
 * The token and the rate limit are checked on every request, as on any route.
 */
export async function serveResumeRest(req: IncomingMessage): Promise<Answer> {
  const request = restRequestOf(req);
  try {
    if (request.method === "GET" && request.target.split("?", 1)[0] === "/me/resume")
      return await serveWholeResume(request);
    return await rest.handle(
      request,
      async (limit) => (await readBody(req, limit))?.toString("utf8") ?? null,
    );
  } catch (error) {
    logApiError({ code: "INTERNAL_SERVER_ERROR", cause: error }, request.target);
    return jsonAnswer(500, apiErrorBody(500, "internal error"), { "api-version": API_VERSION });
  }
}

async function serveWholeResume(request: RestRequest): Promise<Answer> {
  wholeResumeAnswers ??= createAnswerCache({ maxBytes: webEnv().RESUME_ANSWER_CACHE_BYTES });
  const identity = await identify(request);
  if (identity instanceof AuthenticationError) return rest.handle(request);
  let version: string | null;
  try {
    version = await resumeVersionOf(identity.userId);
  } catch (error) {
    if (isDatabaseUnavailable(error))
      return jsonAnswer(503, apiErrorBody(503, DATABASE_UNAVAILABLE), { "api-version": API_VERSION });
    logApiError({ code: "INTERNAL_SERVER_ERROR", cause: error }, "GET /me/resume (version)");
    version = null;
  }
  if (version === null) return rest.handle(request);

  // The answer depends on the format asked for and nothing else in the query,
  // so other parameters (cache busters) neither miss nor fill the cache.
  const formats = new URLSearchParams(request.target.split("?")[1] ?? "").getAll("format");
  const key = JSON.stringify([identity.userId, formats]);
  const kept = wholeResumeAnswers.get(key, version);
  // Over the limit, the procedure answers the 429 (counting once more changes nothing).
  if (kept && rateLimit().take(identity.userId) === 0) return kept;
  const answer = await rest.handle(request);
  // Built after `version` was read, so from that version or a newer one: the
  // next request that reads a newer version builds its own.
  if (answer.status === 200) wholeResumeAnswers.set(key, version, answer);
  return answer;
}

/** The same router for the editor, over tRPC's own transport at /api/trpc. */
export function serveResumeTrpc(req: IncomingMessage, res: ServerResponse, path: string) {
  return nodeHTTPRequestHandler({
    req,
    res,
    path,
    router: resumeAppRouter,
    // The editor may batch a few calls in one request.
    maxBodySize: 4 * LIMITS.bodyBytes,
    createContext: () => createResumeContext(restRequestOf(req), undefined, { acceptSessionCookie: true }),
    onError: ({ error, path: procedure }) => logApiError(error, procedure),
  });
}

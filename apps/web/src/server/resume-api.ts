import type { IncomingMessage, ServerResponse } from "node:http";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";
import { AuthenticationError } from "@app/auth";
import {
  createResponseControl,
  createRestHandler,
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
import { batchLookups } from "./batched-lookup";
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

/** Whole-resume answers: a 200 × 120-entry resume is about 43 KB; 64 MB keeps ~1,500 of them. */
const wholeResumeAnswers = createAnswerCache({ maxBytes: 64 * 1024 * 1024 });
let resumeVersionOf: ((userId: string) => Promise<string>) | undefined;

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
  const readRequestBody = async (limit: number) => (await readBody(req, limit))?.toString("utf8") ?? null;
  if (request.method !== "GET" || request.target.split("?", 1)[0] !== "/me/resume")
    return rest.handle(request, readRequestBody);

  const identity = await identify(request);
  if (identity instanceof AuthenticationError) return rest.handle(request);
  resumeVersionOf ??= batchLookups((userIds) => readResumeVersions(database(), userIds));
  // Unreadable (the database is down): the uncached path gives the documented answer.
  const version = await resumeVersionOf(identity.userId).catch(() => undefined);
  if (version === undefined) return rest.handle(request);

  const key = `${identity.userId} ${request.target}`;
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
    createContext: () => createResumeContext(restRequestOf(req), undefined, { acceptSessionCookie: true }),
    onError: ({ error, path: procedure }) => logApiError(error, procedure),
  });
}

import type { IncomingMessage, ServerResponse } from "node:http";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";
import { AuthenticationError } from "@app/auth";
import {
  batchCalls,
  databaseErrorClass,
  isDatabaseUnavailable,
  isRefusedValue,
  withTimeout,
  type Database,
} from "@app/db";
import {
  apiErrorOf,
  ClientAbortedError,
  DomainError,
  createResponseControl,
  createRestHandler,
  errorAnswer,
  failureAnswer,
  methodNotAllowedAnswer,
  parseRequestTarget,
  preconditionHeadersOf,
  READ_METHODS,
  readBody,
  restRequestOf,
  sendAnswer,
  serviceUnavailable,
  trpcErrorOf,
  type Answer,
  type RequestTarget,
  type RestRequest,
  type RouteTable,
} from "@app/rest";
import {
  LIMITS,
  readResumeVersions,
  refuseUnlessAdmitted,
  resumeAppRouter,
  resumeOpenApiDocument,
  TAILORED_RESUME_PATH,
  WHOLE_RESUME_PATH,
  type ResumeContext,
  type ResumeIdentity,
  type WholeResume,
  type WholeResumeChange,
  type WriteOutcome,
} from "@app/resume";
import { createFailureReporter, type Logger, type RequestRecord, type ServiceMetrics } from "@app/service";
import type { createAnswerCache, KeptAnswer } from "./answer-cache.ts";
import { createAnswersBeingKept } from "./answers-being-kept.ts";
import type { DocumentWorkers } from "./document-workers.ts";
import type { Identify, Identity } from "./identify.ts";
import type { SharedRateLimit } from "./shared-rate-limit.ts";

/**
 * How long GET /me/resume waits for its version before the database counts as
 * unavailable: a new connection's 2 s, and a second to answer (with 1 s, a
 * fresh server's first requests failed where connections were slow to open).
 */
const VERSION_TIMEOUT_MS = 3_000;

/**
 * How long a write waits for the answers it keeps again (refreshAfterWrite)
 * before it answers anyway: its own change is already committed. A build
 * still under way keeps its answer when it ends; a read that comes first
 * builds its own.
 */
const REFRESH_TIMEOUT_MS = 1_000;

/** How many of a person's resumes (theirs, their tailored versions') a write keeps again at most. */
const MAX_PATHS_KEPT_AGAIN = 4;

export interface ResumeApiDeps {
  db: Database;
  identify: Identify;
  rateLimit: SharedRateLimit;
  /** GET /me/resume answers kept per person, format list and resume version. */
  answerCache: ReturnType<typeof createAnswerCache>;
  /** Where PDF, Word and text documents are made; unset: on the request's thread. */
  documentWorkers?: Pick<DocumentWorkers, "renderFor">;
  /** PUBLIC_URL: the origin of share links' URLs. */
  publicUrl: string;
  logger: Logger;
  metrics?: ServiceMetrics;
}

export interface ResumeApi {
  /** `/me/*` over REST: bearer tokens only. */
  serveRest(req: IncomingMessage, target: RequestTarget, record: RequestRecord): Promise<Answer>;
  /**
   * The same router for the editor, over tRPC's own transport (the session
   * cookie counts too): GET and HEAD for queries, POST for mutations, else a 405.
   */
  serveTrpc(
    req: IncomingMessage,
    res: ServerResponse,
    target: RequestTarget,
    procedurePath: string,
    record: RequestRecord,
  ): Promise<void>;
}

/**
 * The resume API: one router served as REST (packages/rest) and over tRPC.
 * Each request is identified once, counted against the rate limit once, and
 * handed to the procedures in its context; the procedures decide 401 and 429.
 */
export function createResumeApi({
  db,
  identify,
  rateLimit,
  answerCache,
  documentWorkers,
  publicUrl,
  logger,
  metrics,
}: ResumeApiDeps): ResumeApi {
  const cacheLookups = metrics?.counter(
    "resume_answer_cache_lookups_total",
    "GET /me/resume answers looked for in memory: hit (answered from memory) or miss (built).",
    ["result"],
  );

  const keptAfterWrite = metrics?.counter(
    "resume_answers_kept_after_write_total",
    "A writer's kept JSON resumes (one per path) kept again after a write: changed (the write's change applied) or built (read again).",
    ["how"],
  );

  // A read waits for a write's answers no longer than the write waits for them.
  const answersBeingKept = createAnswersBeingKept({ maxWaitMs: REFRESH_TIMEOUT_MS });

  const failures = createFailureReporter(logger, metrics, databaseErrorClass);
  const rest = createRestHandler({
    router: resumeAppRouter,
    document: resumeOpenApiDocument,
    maxBodyBytes: LIMITS.bodyBytes,
    onError: failures.onProcedureError,
  });

  /**
   * The caller's resume version, read after the request arrived; concurrent
   * requests share one query (a user id the database refuses fails its own).
   */
  const versionOf = batchCalls(
    (userIds: string[]) => withTimeout(readResumeVersions(db, userIds), VERSION_TIMEOUT_MS),
    { isolate: isRefusedValue },
  );

  const contextOf = (
    identity: Identity,
    headers: RestRequest["headers"],
    takeRateLimit: ResumeContext["takeRateLimit"] = (userId) => rateLimit.take(userId),
  ): ResumeContext => ({
    db,
    identity,
    takeRateLimit,
    idempotencyKey: headers.get("idempotency-key"),
    preconditions: preconditionHeadersOf(headers),
    response: createResponseControl(),
    renderDocument:
      identity instanceof AuthenticationError ? undefined : documentWorkers?.renderFor(identity.userId),
    publicUrl,
    beforeWrite:
      identity instanceof AuthenticationError
        ? undefined
        : () => {
            const group = answerGroupOf(identity.userId);
            // Taken before the write is sent: none of these answers can hold its change.
            const keptByPath = byPath(answerCache.givenBackSinceKept(group)).slice(0, MAX_PATHS_KEPT_AGAIN);
            // From now on: a read that sees the write's version before its answers are kept waits for them.
            const kept = answersBeingKept.begin(
              group,
              keptByPath.flatMap(([, answers]) => answers.map(({ key }) => key)),
            );
            return (outcome) => refreshAfterWrite(identity, outcome, keptByPath).finally(kept);
          },
  });

  /**
   * After a write through this server the person's kept answers are never
   * given back again. Those in JSON that were given back since they were built
   * (someone who reads between writes; `keptByPath`, taken before the write
   * and grouped by path) are kept again before a write that succeeded
   * answers, so that the next read finds them kept: it waits for the version
   * read alone, not for a build. Once per path (every JSON answer of a path is
   * the same, whatever its theme or paper), for at most MAX_PATHS_KEPT_AGAIN
   * paths; any other answer is built by the next read that asks for it
   * (serveWholeResume).
   */
  async function refreshAfterWrite(
    identity: ResumeIdentity,
    outcome: WriteOutcome,
    keptByPath: [path: string, kept: KeptAnswer[]][],
  ) {
    const group = answerGroupOf(identity.userId);
    answerCache.forget(group);
    if (!outcome.succeeded) return;
    await Promise.all(
      keptByPath.map(([path, kept]) =>
        withTimeout(keepAgain(identity, group, path, kept, outcome.change), REFRESH_TIMEOUT_MS).catch(
          (error: unknown) =>
            logger.warn(
              { err: error, path },
              "an answer was not kept again after a write (the next read builds it)",
            ),
        ),
      ),
    );
  }

  /**
   * The answers of `path` kept again after a write: GET /me/resume's with the
   * write's `change` applied, when the write's move of the version is the only
   * one since one of them was built (the version read after the write says
   * which version that move replaced, and a version is never reused), so that
   * no statement reads the resume again; otherwise built again.
   */
  async function keepAgain(
    identity: ResumeIdentity,
    group: string,
    path: string,
    kept: KeptAnswer[],
    change: WholeResumeChange | undefined,
  ) {
    const keys = kept.map(({ key }) => key);
    if (change && path === WHOLE_RESUME_PATH) {
      const now = await versionOf(identity.userId);
      const before = kept.find(({ version }) => version === now?.previous);
      if (now && before) {
        const resume = change(JSON.parse(before.answer.body.toString("utf8")) as WholeResume);
        const answer = { ...before.answer, body: JSON.stringify(resume) };
        for (const key of keys) answerCache.set(group, key, now.version, answer, path);
        keptAfterWrite?.inc({ how: "changed" });
        return;
      }
    }
    await buildAndKeep(
      { method: "GET", target: parseRequestTarget(path), headers: NO_HEADERS, body: Buffer.alloc(0) },
      identity,
      { group, keys },
      () => 0,
    );
    keptAfterWrite?.inc({ how: "built" });
  }

  async function serveRest(
    req: IncomingMessage,
    target: RequestTarget,
    record: RequestRecord,
  ): Promise<Answer> {
    const request = restRequestOf(req, target);
    record.route = rest.routeOf(target.path) ?? "unmatched";
    let identified: Promise<Identity> | undefined;
    const wholeResume =
      (request.method === "GET" || request.method === "HEAD") &&
      (record.route === WHOLE_RESUME_PATH || record.route === TAILORED_RESUME_PATH);
    const identity = () =>
      // The editor's Download menus fetch GET /me/resume and a version's resume: there, and only there, the session cookie counts.
      (identified ??= identify(request.headers, { acceptSessionCookie: wholeResume }).then((found) => {
        if (!(found instanceof AuthenticationError)) record.user = found.userId;
        return found;
      }));
    let answer: Answer;
    try {
      answer = wholeResume
        ? await serveWholeResume(request, await identity())
        : await rest.handle(request, {
            authorize: async ({ type, meta }) =>
              refuseUnlessAdmitted(await identityForProcedure(identity()), type, meta),
            context: async () => contextOf(await identityForProcedure(identity()), request.headers),
            readBody: (limit) => readBody(req, limit),
          });
    } catch (error) {
      if (error instanceof ClientAbortedError) return errorAnswer(400, error.message);
      failures.report(record.route, error);
      return failureAnswer(error, isDatabaseUnavailable);
    }
    return answer;
  }

  /**
   * GET /me/resume and a tailored version's GET /me/versions/{id}/resume,
   * answered from memory while the caller's resume version (read after the
   * request arrived) is the one the kept answer was built from: a write
   * acknowledged by any server is never missed (a change to a tailored version
   * moves that version too). With nothing kept for the request (a first read,
   * or one after the person wrote through this server that did not keep it
   * again) the answer is built at once, without reading the version first: one
   * round trip, not two.
   * Answers depend on the path, the format, theme and paper lists and nothing
   * else in the query, so cache busters neither miss nor fill the cache.
   * While a write of the person through this server keeps the answer again, a
   * read that finds it gone or of another version waits for that once (counted
   * against the rate limit first), then looks again (answersBeingKept).
   */
  async function serveWholeResume(request: RestRequest, identity: Identity): Promise<Answer> {
    if (identity instanceof AuthenticationError)
      return rest.handle(request, { context: async () => contextOf(identity, request.headers) });
    const group = answerGroupOf(identity.userId);
    const { query } = request.target;
    // Every theme is checked, whatever the format: a kept answer must not skip the check.
    const key = JSON.stringify([
      request.target.path,
      ...["format", "theme", "paper"].map((name) => query.getAll(name)),
    ]);
    const keep = { group, keys: [key] };
    // The rate limit's decision when taken before a wait for a write's answers.
    let countedBeforeWait: number | undefined;
    if (!answerCache.holds(group, key)) {
      const beingKept = answersBeingKept.ended(group, key);
      if (!beingKept) {
        const answer = await buildAndKeep(request, identity, keep);
        if (answer.status !== 429) cacheLookups?.inc({ result: "miss" });
        return answer;
      }
      // Counted before the wait: a request over the limit is answered at once.
      const retryAfter = (countedBeforeWait = await rateLimit.take(identity.userId));
      if (retryAfter > 0) return buildAndKeep(request, identity, keep, () => retryAfter);
      await beingKept;
    }
    const [retryAfter, version] = await Promise.all([
      countedBeforeWait ?? rateLimit.take(identity.userId),
      versionOf(identity.userId),
    ]);
    let kept = version === null ? undefined : answerCache.get(group, key, version.version);
    if (!kept && countedBeforeWait === undefined && retryAfter === 0 && version !== null) {
      // Of another version: a write of the person through this server may be keeping it at this one.
      const beingKept = answersBeingKept.ended(group, key);
      if (beingKept) {
        await beingKept;
        kept = answerCache.get(group, key, version.version);
      }
    }
    if (retryAfter === 0) cacheLookups?.inc({ result: kept ? "hit" : "miss" });
    if (kept && retryAfter === 0) return kept;
    // Counted once: the procedure reads the decision taken here (and answers the 429).
    return buildAndKeep(request, identity, keep, () => retryAfter);
  }

  /**
   * The procedure's answer, kept under the resume version it read with the
   * resume (ResponseControl.dataVersion), in the answer cache's `group` under
   * each of `keys`; a JSON answer with its path, to be kept again after a
   * write (refreshAfterWrite). `takeRateLimit`: the rate limit's decision when
   * already taken; else the procedure counts the request.
   */
  async function buildAndKeep(
    request: RestRequest,
    identity: ResumeIdentity,
    { group, keys }: { group: string; keys: readonly string[] },
    takeRateLimit?: ResumeContext["takeRateLimit"],
  ): Promise<Answer> {
    const context = contextOf(identity, request.headers, takeRateLimit);
    const answer = await rest.handle(request, { context: async () => context });
    const version = context.response.dataVersion;
    if (version === undefined || answer.status !== 200) return answer;
    const source = isJsonAnswer(request.target) ? request.target.path : undefined;
    for (const key of keys) answerCache.set(group, key, version, answer, source);
    return answer;
  }

  async function serveTrpc(
    req: IncomingMessage,
    res: ServerResponse,
    target: RequestTarget,
    procedurePath: string,
    record: RequestRecord,
  ) {
    record.route = trpcRouteOf(rest.table, procedurePath);
    const method = req.method ?? "GET";
    const allowed = trpcMethodsOf(rest.table, procedurePath);
    if (!allowed.includes(method))
      return sendAnswer(res, methodNotAllowedAnswer(method, `/api/trpc/${procedurePath}`, allowed));
    // tRPC answers HEAD with an empty 204; as a GET, node:http sends its status and headers without the body.
    if (method === "HEAD") req.method = "GET";
    const { headers } = restRequestOf(req, target);
    return nodeHTTPRequestHandler({
      req,
      res,
      path: procedurePath,
      router: resumeAppRouter,
      maxBodySize: trpcBodyLimitOf(rest.table, procedurePath),
      createContext: async () => {
        const identity = await identityForProcedure(identify(headers, { acceptSessionCookie: true }));
        if (!(identity instanceof AuthenticationError)) record.user = identity.userId;
        return contextOf(identity, headers);
      },
      onError: ({ error, path }) => failures.onProcedureError(error, path),
      // The headers of each failure's answer on the REST side too: a 503's Retry-After.
      responseMeta: ({ errors }) => ({
        headers: Object.assign({}, ...errors.map((error) => apiErrorOf(error).headers)) as Record<
          string,
          string
        >,
      }),
    });
  }

  return { serveRest, serveTrpc };
}

/** Answers by the path they are kept again from (KeptAnswer.source), in the order first met. */
function byPath(answers: KeptAnswer[]): [path: string, kept: KeptAnswer[]][] {
  const paths = new Map<string, KeptAnswer[]>();
  for (const answer of answers) {
    const kept = paths.get(answer.source);
    if (kept) kept.push(answer);
    else paths.set(answer.source, [answer]);
  }
  return [...paths];
}

/** The answer cache's group of a person's answers (share links' pages are kept as `link:…`). */
const answerGroupOf = (userId: string) => `person:${userId}`;

/** A whole resume asked for in JSON (the default format): what REST clients read back after they write. */
const isJsonAnswer = ({ query }: RequestTarget) =>
  query.getAll("format").every((format) => format === "json");

/** An answer of GET /me/resume depends on no request header: an answer built again is built without them. */
const NO_HEADERS: RestRequest["headers"] = { get: () => null };

/**
 * The route a tRPC request is logged and counted under: its procedure, or one
 * name for every batch and one for every path that names no procedure. The
 * path as sent would give the metrics a series per path anyone cares to send,
 * without end.
 */
function trpcRouteOf(table: RouteTable, procedurePath: string): string {
  const paths = procedurePath.split(",");
  if (!paths.every((path) => table.procedure(path))) return "/api/trpc/{unknown}";
  return paths.length === 1 ? `/api/trpc/${procedurePath}` : "/api/trpc/{batch}";
}

/**
 * The methods of a tRPC request to `procedurePath`: a query is read with GET
 * (and HEAD), a mutation sent with POST; a batch (`a,b`) takes those of its
 * procedures. A path naming no procedure takes both, for tRPC to answer its 404.
 */
function trpcMethodsOf(table: RouteTable, procedurePath: string): readonly string[] {
  const types = new Set(procedurePath.split(",").map((path) => table.procedure(path)?.type));
  const methods = [...(types.has("query") ? READ_METHODS : []), ...(types.has("mutation") ? ["POST"] : [])];
  return methods.length > 0 ? methods : [...READ_METHODS, "POST"];
}

/**
 * The body limit of a tRPC request to `procedurePath` (a batch names several,
 * comma-separated): room for a few calls of the service's limit, or the
 * largest limit of its own that one of them declares (RestMeta.maxBodyBytes: the import's).
 */
function trpcBodyLimitOf(table: RouteTable, procedurePath: string): number {
  const own = procedurePath.split(",").map((path) => table.procedure(path)?.rest.maxBodyBytes ?? 0);
  return Math.max(4 * LIMITS.bodyBytes, ...own);
}

/**
 * The caller, for a procedure's context. A personal access token is looked up
 * in the database; when that cannot answer, the request is a 503 like any
 * other the database cannot serve, and so is a token the sign-in provider's
 * keys could not be read to check (identify's DomainError); tRPC makes
 * anything else thrown while building a context a 500.
 */
async function identityForProcedure(identity: Promise<Identity>): Promise<Identity> {
  try {
    return await identity;
  } catch (error) {
    if (error instanceof DomainError) throw trpcErrorOf(error);
    if (!isDatabaseUnavailable(error)) throw error;
    throw trpcErrorOf(serviceUnavailable(undefined, error));
  }
}

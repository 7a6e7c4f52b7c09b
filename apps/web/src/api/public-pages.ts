import type { IncomingMessage } from "node:http";
import {
  batchCalls,
  databaseErrorClass,
  isDatabaseUnavailable,
  isRefusedValue,
  withTimeout,
  type Database,
} from "@app/db";
import {
  createResponseControl,
  DomainError,
  errorAnswer,
  errorAnswerOf,
  failureAnswer,
  methodNotAllowedAnswer,
  READ_METHODS,
  type Answer,
  type RequestTarget,
} from "@app/rest";
import {
  addShareLinkViews,
  type CountedViews,
  answerInFormat,
  findSharedVersions,
  getTailoredResume,
  PAPER_SIZES,
  slugHashOf,
  SLUG_PATTERN,
  THEME_NAMES,
  withDownloadLinks,
  type PaperSize,
  type SharedVersion,
} from "@app/resume";
import { createFailureReporter, type Logger, type RequestRecord, type ServiceMetrics } from "@app/service";
import type { createAnswerCache } from "./answer-cache.ts";
import { rateLimitKeyOf } from "./client-address.ts";
import { acceptsHtml, DEAD_LINK_PAGE } from "./dead-link-page.ts";
import type { DocumentWorkers } from "./document-workers.ts";
import type { SharedRateLimit } from "./shared-rate-limit.ts";

/** The route template in logs and metrics: the slug is a secret, so it never reaches them. */
export const PUBLIC_PAGE_ROUTE = "/r/{slug}";
const PUBLIC_PREFIX = "/r/";
/** How long a link's lookup may wait, as GET /me/resume's version read (resume-api.ts says why). */
const LOOKUP_TIMEOUT_MS = 3_000;
/** Views are written this often, added up, rather than with every page. */
const VIEWS_FLUSH_MS = 1_000;

/**
 * Unknown, revoked and expired links get this one answer, byte for byte
 * (the headers the server adds are the same for all three too), after the
 * same lookup: nothing tells a guess that once worked from one that never did.
 * A browser gets it as a page that says so (DEAD_LINK_PAGE), as one answer too.
 */
const NOT_FOUND = errorAnswer(404, "no page here: this link is unknown, revoked or expired", {
  vary: "accept",
});
const NOT_FOUND_PAGE: Answer = {
  status: 404,
  headers: { "content-type": "text/html; charset=utf-8", vary: "accept" },
  body: DEAD_LINK_PAGE,
};

type SharedFile = "page" | "pdf" | "docx";

/** `/r/<slug>`, `/r/<slug>.pdf`, `/r/<slug>.docx`; anything else under /r/ names no link. */
function sharedFileOf(path: string): { slug: string; file: SharedFile } | null {
  const match = /^\/r\/([^/]*?)(?:\.(pdf|docx))?$/.exec(path);
  if (!match || !SLUG_PATTERN.test(match[1]!)) return null;
  return { slug: match[1]!, file: (match[2] as "pdf" | "docx" | undefined) ?? "page" };
}

/** The files' page size, `?paper=letter` or `a4` (the default), as GET /me/resume takes it; else the 400's message. */
function paperOf(query: URLSearchParams): { paper: PaperSize } | { refused: string } {
  const papers = query.getAll("paper");
  if (papers.length > 1) return { refused: "paper: is given more than once: send it once" };
  const paper = papers[0] ?? "a4";
  return (PAPER_SIZES as readonly string[]).includes(paper)
    ? { paper: paper as PaperSize }
    : { refused: `paper: must be one of ${PAPER_SIZES.join(", ")}` };
}

export interface PublicPagesDeps {
  db: Database;
  /** PUBLIC_RATE_LIMIT_PER_MINUTE, counted per client address across instances. */
  rateLimit: SharedRateLimit;
  clientAddressOf(req: IncomingMessage): string;
  /** The same memory as GET /me/resume's answers, under keys of their own. */
  answerCache: ReturnType<typeof createAnswerCache>;
  documentWorkers?: Pick<DocumentWorkers, "renderFor">;
  logger: Logger;
  metrics?: ServiceMetrics;
}

export interface PublicPages {
  /** Whether `path` is one of the public pages'. */
  owns(path: string): boolean;
  serve(req: IncomingMessage, target: RequestTarget, record: RequestRecord): Promise<Answer>;
  /** Writes the views counted and not yet written (at shutdown). */
  close(): Promise<void>;
}

/**
 * The public pages of share links, for anyone, signed in or not: `/r/<slug>`
 * answers the version's themed page, `.pdf` and `.docx` its files. Each
 * request is counted against the client address's rate limit, then its link
 * looked up by the slug's SHA-256 (concurrent lookups share one statement);
 * an answer kept in memory is given while the owner's resume version is the
 * one it was built from, as for GET /me/resume, so an edit shows at once and
 * a revoked link is a 404 at once, on every instance.
 */
export function createPublicPages({
  db,
  rateLimit,
  clientAddressOf,
  answerCache,
  documentWorkers,
  logger,
  metrics,
}: PublicPagesDeps): PublicPages {
  const failures = createFailureReporter(logger, metrics, databaseErrorClass);
  const lookUp = batchCalls(
    (hashes: string[]) => withTimeout(findSharedVersions(db, hashes), LOOKUP_TIMEOUT_MS),
    { isolate: isRefusedValue },
  );

  /**
   * The answers being built, by link, file and resume version: requests that
   * come while one is built wait for it rather than build it again, which
   * would take the owner's document workers (two files or four pages at once,
   * then 429s, their own downloads and previews in the editor included) for the
   * same file.
   */
  const building = new Map<string, Promise<Answer>>();
  function buildOnce(flight: string, make: () => Promise<Answer>): Promise<Answer> {
    let answer = building.get(flight);
    if (!answer) {
      answer = make().finally(() => building.delete(flight));
      building.set(flight, answer);
    }
    return answer;
  }

  const unwrittenViews = new Map<string, CountedViews>();
  const flushViews = async () => {
    if (unwrittenViews.size === 0) return;
    const views = new Map(unwrittenViews);
    unwrittenViews.clear();
    try {
      await addShareLinkViews(db, views);
    } catch (error) {
      // Counted again with the next flush rather than lost to a moment without the database.
      for (const [id, { count, lastAt }] of views) {
        const later = unwrittenViews.get(id);
        unwrittenViews.set(id, { count: count + (later?.count ?? 0), lastAt: later?.lastAt ?? lastAt });
      }
      logger.warn({ err: error }, "writing share link views failed");
    }
  };
  const flushTimer = setInterval(() => void flushViews(), VIEWS_FLUSH_MS);
  flushTimer.unref();

  async function build(
    shared: SharedVersion,
    slug: string,
    file: SharedFile,
    paper: PaperSize,
  ): Promise<Answer> {
    const { version, resume } = await getTailoredResume(db, shared.userId, shared.versionId);
    const response = createResponseControl();
    const body = await answerInFormat(
      { response, renderDocument: documentWorkers?.renderFor(shared.userId) },
      resume,
      { format: file === "page" ? "html" : file, theme: version.theme ?? THEME_NAMES[0], paper },
    );
    const headers = Object.fromEntries(response.headers);
    return {
      status: 200,
      headers,
      body: file === "page" ? withDownloadLinks(body as string, slug) : (body as string | Buffer),
    };
  }

  async function serve(req: IncomingMessage, target: RequestTarget, record: RequestRecord): Promise<Answer> {
    record.route = PUBLIC_PAGE_ROUTE;
    const method = req.method ?? "GET";
    const notFound = acceptsHtml(req.headers.accept) ? NOT_FOUND_PAGE : NOT_FOUND;
    if (!READ_METHODS.includes(method))
      return methodNotAllowedAnswer(method, PUBLIC_PAGE_ROUTE, READ_METHODS);
    try {
      const client = rateLimitKeyOf(clientAddressOf(req));
      // A client known to be past its limit costs no lookup (nor waits for one the database is slow with).
      const refused = rateLimit.refusedFromMemory(client);
      if (refused > 0) return tooManyRequests(refused);
      const wanted = sharedFileOf(target.path);
      const hash = wanted ? slugHashOf(wanted.slug) : null;
      // Side by side, as GET /me/resume counts and reads its version: the lookup waits for no lease.
      const [retryAfter, shared] = await Promise.all([
        rateLimit.take(client),
        hash === null ? null : lookUp(hash),
      ]);
      if (retryAfter > 0) return tooManyRequests(retryAfter);
      if (!wanted || !hash || !shared) return notFound;
      const paperWanted = paperOf(target.query);
      if ("refused" in paperWanted) return errorAnswer(400, paperWanted.refused);
      const { paper } = paperWanted;
      const group = `link:${hash}`;
      const key = `${wanted.file}:${paper}`;
      let answer =
        shared.resumeVersion === null ? undefined : answerCache.get(group, key, shared.resumeVersion);
      if (!answer) {
        const make = () => build(shared, wanted.slug, wanted.file, paper);
        if (shared.resumeVersion === null) answer = await make();
        else {
          answer = await buildOnce(`${group} ${key} ${shared.resumeVersion}`, make);
          answerCache.set(group, key, shared.resumeVersion, answer);
        }
      }
      if (method === "GET" && wanted.file === "page") {
        const counted = unwrittenViews.get(shared.linkId);
        unwrittenViews.set(shared.linkId, { count: (counted?.count ?? 0) + 1, lastAt: new Date() });
      }
      return answer;
    } catch (error) {
      // The version went between the lookup and its read (deleted meanwhile): as any link gone.
      if (error instanceof DomainError && error.status === 404) return notFound;
      if (error instanceof DomainError) return errorAnswerOf(error);
      failures.report(PUBLIC_PAGE_ROUTE, error);
      return failureAnswer(error, isDatabaseUnavailable);
    }
  }

  return {
    owns: (path) => path.startsWith(PUBLIC_PREFIX),
    serve,
    async close() {
      clearInterval(flushTimer);
      await flushViews();
    },
  };
}

const tooManyRequests = (retryAfter: number) =>
  errorAnswer(429, `too many requests; retry in ${retryAfter} s`, { "retry-after": String(retryAfter) });

import type http from "node:http";
import { isDatabaseUnavailable } from "@app/db";
import {
  badTargetAnswer,
  errorAnswer,
  failureAnswer,
  healthAnswer,
  methodNotAllowedAnswer,
  parseRequestTarget,
  READ_METHODS,
  sendAnswer,
  type Answer,
} from "@app/rest";
import { API_VERSION } from "@app/resume";
import {
  createServiceServer,
  runWithRequest,
  type Logger,
  type RequestRecord,
  type ServiceMetrics,
  type ServiceServer,
} from "@app/service";
import { SECURITY_HEADERS } from "../server/security-headers.ts";
import type { Cors } from "./cors.ts";
import type { PublicPages } from "./public-pages.ts";
import type { ResumeApi } from "./resume-api.ts";

type NextHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

export interface WebServerDeps {
  api: ResumeApi;
  /** Cross-origin access to `/me/*` (CORS_ALLOWED_ORIGINS). */
  cors: Cors;
  /** Share links' pages, `/r/*`, for anyone. */
  publicPages: PublicPages;
  /** Pages, /docs, /openapi.json, the local sign-in, static files. */
  handleNext: NextHandler;
  isDatabaseReachable(): Promise<boolean>;
  /** Whether a request's `Host` is one this server answers (unset: any); else 421. */
  acceptsHost?: (host: string | undefined) => boolean;
  logger: Logger;
  metrics?: ServiceMetrics;
}

const TRPC_PREFIX = "/api/trpc/";
/**
 * Every answer of the API this server gives itself. A person's resume and
 * tokens, read with their credentials: no cache, the browser's included, keeps them.
 */
const API_HEADERS = { ...SECURITY_HEADERS, "cache-control": "no-store", "api-version": API_VERSION };
/**
 * Every answer of a share link's public page or file: kept by no cache (a
 * revoked link must stop at once), indexed by no search engine, and the
 * page's address (the secret) sent to nobody it links to.
 */
const PUBLIC_HEADERS = {
  ...SECURITY_HEADERS,
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
  "Referrer-Policy": "no-referrer",
};

/**
 * The web app's HTTP server (packages/service: limits, request ids, logs,
 * metrics, drained shutdown). It serves the API itself (`/me/*`, the editor's
 * `/api/trpc/*`, `/healthz`, `/livez`) and hands everything else to Next.js.
 * Why not a Next.js route: Next's routing costs more CPU per request than the
 * handler itself, which capped GET /me/resume far below its target
 * (measured: docs/benchmarks.md, "Resume").
 *
 * Each request is answered in its request context (`runWithRequest`), so that
 * every line logged meanwhile names it: Next.js's console output, and lines
 * of work a request started that ends after its answer. Next.js runs its
 * own AsyncLocalStorage anyway, so on Node 20 the promise hooks that context
 * costs are paid either way.
 */
export function createWebServer({
  api,
  cors,
  publicPages,
  handleNext,
  isDatabaseReachable,
  acceptsHost = () => true,
  logger,
  metrics,
}: WebServerDeps): ServiceServer {
  const service: ServiceServer = createServiceServer({
    logger,
    ...(metrics ? { metrics } : {}),
    refusedRequest: (status, message) => errorAnswer(status, message, API_HEADERS),
    handle: (req, res, record) => runWithRequest(record, () => handle(req, res, record)),
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, record: RequestRecord) {
    // Refused before routing, as the API answers: whether the path was one of its own is not known.
    const badTarget = badTargetAnswer(req.url ?? "/");
    if (badTarget) return sendAnswer(res, badTarget, API_HEADERS);
    if (!acceptsHost(req.headers.host)) {
      const message = `this server answers requests to localhost only, not to ${req.headers.host}`;
      return sendAnswer(res, errorAnswer(421, message), API_HEADERS);
    }
    const target = parseRequestTarget(req.url ?? "/");
    const pathname = target.path;
    try {
      if (pathname === "/me" || pathname.startsWith("/me/")) {
        const preflight = cors.preflight(req);
        if (preflight) {
          record.route = "preflight";
          return sendAnswer(res, preflight, API_HEADERS);
        }
        return sendAnswer(res, await api.serveRest(req, target, record), {
          ...API_HEADERS,
          ...cors.headersFor(req),
        });
      }
      if (publicPages.owns(pathname)) {
        return sendAnswer(res, await publicPages.serve(req, target, record), PUBLIC_HEADERS);
      }
      if (pathname.startsWith(TRPC_PREFIX)) {
        for (const [name, value] of Object.entries(API_HEADERS)) res.setHeader(name, value);
        return await api.serveTrpc(req, res, target, pathname.slice(TRPC_PREFIX.length), record);
      }
      const health = await healthAnswer(pathname, req.method ?? "GET", {
        isDraining: () => service.isDraining(),
        isDatabaseReachable,
      });
      if (health) {
        record.route = pathname;
        return sendApiAnswer(res, health);
      }
      record.route = "next";
      const method = req.method ?? "GET";
      const allowed = nextMethodsOf(pathname);
      if (!allowed.includes(method)) {
        // The API's document is part of the API: its answers say the API's version, as GET's does.
        const headers = pathname === "/openapi.json" ? API_HEADERS : SECURITY_HEADERS;
        return sendAnswer(res, methodNotAllowedAnswer(method, pathname, allowed), headers);
      }
      return await handleNext(req, res);
    } catch (error) {
      logger.error({ err: error }, "request failed");
      if (!res.headersSent) sendApiAnswer(res, failureAnswer(error, isDatabaseUnavailable));
      else res.destroy();
    }
  }
  return service;
}

/**
 * The methods Next.js answers on a path: pages, /docs, /openapi.json and static
 * files are read with GET and HEAD; the local sign-in posts its form to
 * /api/session; Next's development tools (`/__nextjs_*`, `--dev` only) post
 * too. Any other method is a 405 here, not Next's answer: it rendered the page
 * for PATCH /, answered OPTIONS / with a 400, and TRACE with a 500 without the
 * security headers (TRACE is a forbidden method in the Fetch standard, so the
 * Request that Next.js builds of it threw).
 */
function nextMethodsOf(pathname: string): readonly string[] {
  if (pathname === "/api/session") return ["POST"];
  if (pathname.startsWith("/__nextjs")) return [...READ_METHODS, "POST"];
  return READ_METHODS;
}

function sendApiAnswer(res: http.ServerResponse, answer: Answer) {
  sendAnswer(res, answer, API_HEADERS);
}

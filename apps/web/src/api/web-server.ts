import http from "node:http";
import { isDatabaseUnavailable } from "@app/db";
import { failureAnswer, healthAnswer, sendAnswer, type Answer } from "@app/rest";
import { API_VERSION } from "@app/resume";
import { SECURITY_HEADERS } from "../server/security-headers";
import type { ResumeApi } from "./resume-api";

type NextHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

export interface WebServerDeps {
  api: ResumeApi;
  /** Pages, /docs, /openapi.json, the local sign-in, static files. */
  handleNext: NextHandler;
  isDatabaseReachable(): Promise<boolean>;
}

const TRPC_PREFIX = "/api/trpc/";
/** Every answer of the API this server gives itself. */
const API_HEADERS = { ...SECURITY_HEADERS, "api-version": API_VERSION };

/**
 * The web app's HTTP server. It serves the API itself (`/me/*`, the editor's
 * `/api/trpc/*`, `/healthz`, `/livez`) and hands everything else to Next.js. Why not a
 * Next.js route: Next's routing costs about 2.8 ms of CPU per request on top
 * of the handler, which capped GET /me/resume near 300 requests/s on two cores
 * (README, "Benchmarks"). One process, so one database pool, one rate limiter.
 */
export function createWebServer({ api, handleNext, isDatabaseReachable }: WebServerDeps): http.Server {
  async function route(req: http.IncomingMessage, res: http.ServerResponse) {
    const pathname = (req.url ?? "/").split("?", 1)[0]!;
    if (pathname === "/me" || pathname.startsWith("/me/"))
      return sendApiAnswer(res, await api.serveRest(req));
    if (pathname.startsWith(TRPC_PREFIX)) {
      for (const [name, value] of Object.entries(API_HEADERS)) res.setHeader(name, value);
      return api.serveTrpc(req, res, pathname.slice(TRPC_PREFIX.length));
    }
    const health = await healthAnswer(pathname, req.method ?? "GET", isDatabaseReachable);
    if (health) return sendApiAnswer(res, health);
    return handleNext(req, res);
  }

  return http.createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      console.error("[web]", error);
      if (!res.headersSent) sendApiAnswer(res, failureAnswer(error, isDatabaseUnavailable));
      else res.destroy();
    });
  });
}

function sendApiAnswer(res: http.ServerResponse, answer: Answer) {
  sendAnswer(res, answer, API_HEADERS);
}

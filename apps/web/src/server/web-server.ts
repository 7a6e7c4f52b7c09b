import http from "node:http";
import { isDatabaseReachable } from "@app/db";
import { apiErrorBody, healthAnswer, jsonAnswer, sendAnswer, type Answer } from "@app/rest";
import { database } from "./db";
import { serveResumeRest, serveResumeTrpc } from "./resume-api";
import { SECURITY_HEADERS } from "./security-headers";

type NextHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

const TRPC_PREFIX = "/api/trpc/";

/**
 * The web app's HTTP server. It serves the API itself (`/me/*`, the editor's
 * `/api/trpc/*`, `/healthz`) and hands everything else (pages, /docs,
 * /openapi.json, the local sign-in, static files) to Next.js. Why not a Next.js
 * route: Next's routing costs about 2.8 ms of CPU per request on top of the
 * handler, which capped GET /me/resume near 300 requests/s on two cores
 * (README, "Benchmarks"). One process, so one database pool, one rate limiter.
 */
export function createWebServer(handleNext: NextHandler): http.Server {
  return http.createServer((req, res) => {
    route(req, res, handleNext).catch((error: unknown) => {
      console.error("[web]", error);
      if (!res.headersSent) sendApiAnswer(res, jsonAnswer(500, apiErrorBody(500, "internal error")));
      else res.destroy();
    });
  });
}

async function route(req: http.IncomingMessage, res: http.ServerResponse, handleNext: NextHandler) {
  const pathname = (req.url ?? "/").split("?", 1)[0]!;
  if (pathname === "/me" || pathname.startsWith("/me/"))
    return sendApiAnswer(res, await serveResumeRest(req));
  if (pathname.startsWith(TRPC_PREFIX)) {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    return serveResumeTrpc(req, res, pathname.slice(TRPC_PREFIX.length));
  }
  if (pathname === "/healthz") return sendApiAnswer(res, await health(req.method));
  return handleNext(req, res);
}

async function health(method: string | undefined): Promise<Answer> {
  if (method !== "GET" && method !== "HEAD")
    return jsonAnswer(405, apiErrorBody(405, `${method} is not allowed on /healthz`), { allow: "GET, HEAD" });
  return healthAnswer(() => isDatabaseReachable(database()));
}

function sendApiAnswer(res: http.ServerResponse, answer: Answer) {
  sendAnswer(res, answer, SECURITY_HEADERS);
}

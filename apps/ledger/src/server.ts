import http from "node:http";
import { isDatabaseReachable, type Database } from "@app/db";

export interface LedgerServerDeps {
  db: Database;
}

/** The ledger's HTTP server. Routes beyond /healthz arrive with the ledger issue. */
export function createLedgerServer({ db }: LedgerServerDeps): http.Server {
  return http.createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent)
        sendJson(res, 500, { statusCode: 500, error: "INTERNAL_SERVER_ERROR", message: "internal error" });
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://ledger");
    if (url.pathname === "/healthz") {
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("Allow", "GET, HEAD");
        return sendJson(res, 405, { statusCode: 405, error: "METHOD_NOT_ALLOWED", message: "use GET" });
      }
      return (await isDatabaseReachable(db))
        ? sendJson(res, 200, { status: "ok", database: "ok" })
        : sendJson(res, 503, {
            statusCode: 503,
            error: "SERVICE_UNAVAILABLE",
            message: "the database is unreachable",
          });
    }
    sendJson(res, 404, {
      statusCode: 404,
      error: "NOT_FOUND",
      message: `no route for ${req.method} ${url.pathname}`,
    });
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

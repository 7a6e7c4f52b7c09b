import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { RestRequest, RestResponse } from "./rest-handler.ts";

/**
 * The body, or null past `limit` bytes. The rest of a body too large is read
 * and dropped, not left unread: stopping mid-body would reset the connection
 * before the client could read the 413.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  if (Number(req.headers["content-length"] ?? 0) > limit) {
    req.resume();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? null : Buffer.concat(chunks);
}

/** A node:http request as the REST handler reads it; `body` is "" until read. */
export function restRequestOf(req: IncomingMessage, body = ""): RestRequest {
  return {
    method: req.method ?? "GET",
    target: req.url ?? "/",
    headers: {
      get(name) {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    body,
  };
}

/** An answer, whether built here or kept from an earlier request (a Buffer body). */
export type Answer = Omit<RestResponse, "body"> & { body: string | Buffer };

export function sendAnswer(res: ServerResponse, answer: Answer, extraHeaders: Record<string, string> = {}) {
  res.writeHead(answer.status, {
    ...extraHeaders,
    ...answer.headers,
    // Known, so say it: node:http would otherwise send the body chunked.
    "content-length": Buffer.byteLength(answer.body),
  });
  res.end(answer.body);
}

/**
 * On SIGINT or SIGTERM: stop taking connections, let requests in flight end
 * (for up to `graceMs`, then cut them off), run `cleanup`, exit. A cleanup that
 * hangs does not keep the process alive.
 */
export function closeOnSignals(server: Server, cleanup: () => Promise<unknown>, graceMs = 5_000) {
  const close = () => {
    setTimeout(() => process.exit(1), graceMs + 3_000).unref();
    const cutOff = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(cutOff);
      void cleanup().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.once("SIGINT", close);
  process.once("SIGTERM", close);
}

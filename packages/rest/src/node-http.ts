import type { IncomingMessage, ServerResponse } from "node:http";
import type { RestRequest, RestResponse } from "./rest-handler.ts";

/** The body, or null past `limit` bytes (the rest is left unread). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  if (Number(req.headers["content-length"] ?? 0) > limit) {
    req.resume();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
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
  res.writeHead(answer.status, { ...extraHeaders, ...answer.headers });
  res.end(answer.body);
}

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Answer, RestRequest } from "./answer.ts";
import type { RequestTarget } from "./request-target.ts";

/** The client closed its connection before its body was all sent: there is nobody to answer. */
export class ClientAbortedError extends Error {
  override name = "ClientAbortedError";
}

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
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    }
  } catch {
    throw new ClientAbortedError("the client closed the connection before its body ended");
  }
  return size > limit ? null : Buffer.concat(chunks);
}

/** A node:http request as the REST handler reads it, with its target as the server parsed it; `body` is "" until read. */
export function restRequestOf(req: IncomingMessage, target: RequestTarget, body = ""): RestRequest {
  return {
    method: req.method ?? "GET",
    target,
    headers: {
      get(name) {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    body,
  };
}

/** Sends an answer (node:http leaves out the body of a HEAD request and keeps its headers). */
export function sendAnswer(res: ServerResponse, answer: Answer, extraHeaders: Record<string, string> = {}) {
  res.writeHead(answer.status, {
    ...extraHeaders,
    ...answer.headers,
    // Known, so say it: node:http would otherwise send the body chunked.
    "content-length": Buffer.byteLength(answer.body),
  });
  res.end(answer.body);
}

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Answer, RestRequest } from "./answer.ts";
import type { RequestTarget } from "./request-target.ts";

/** The client closed its connection before its body was all sent: there is nobody to answer. */
export class ClientAbortedError extends Error {
  override name = "ClientAbortedError";
}

const NO_BODY = Buffer.alloc(0);
const CLIENT_GONE = "the client closed the connection before its body ended";

/**
 * The body, or null past `limit` bytes. The rest of a body too large is read
 * and dropped, not left unread: stopping mid-body would reset the connection
 * before the client could read the 413. Read from the stream's events: an
 * async iterator over it cost each request several microseconds more
 * (docs/benchmarks.md, "The body read from its events").
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  if (Number(req.headers["content-length"] ?? 0) > limit) {
    req.resume();
    return Promise.resolve(null);
  }
  // Read already, or the client gone before it was: no event would come.
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.destroyed) return Promise.reject(new ClientAbortedError(CLIENT_GONE));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(size > limit ? null : Buffer.concat(chunks, size));
    };
    // Before its end: an error, or the connection closed (node:http emits no error when nobody listens).
    const onGone = () => {
      stop();
      reject(new ClientAbortedError(CLIENT_GONE));
    };
    const stop = () => {
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
    };
    req.on("data", onData).on("end", onEnd).on("error", onGone).on("close", onGone);
  });
}

/** A node:http request as the REST handler reads it, with its target as the server parsed it; `body` is "" until read. */
export function restRequestOf(
  req: IncomingMessage,
  target: RequestTarget,
  body: Buffer = NO_BODY,
): RestRequest {
  return {
    method: req.method ?? "GET",
    target,
    headers: {
      get(name) {
        const key = name.toLowerCase();
        if (key === "cookie") return req.headers.cookie ?? null;
        // Every line: node:http keeps only the first of a repeated Authorization or Content-Type, so a second would go unseen.
        return req.headersDistinct[key]?.join(", ") ?? null;
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

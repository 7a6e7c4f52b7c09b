import { randomUUID } from "node:crypto";
import http from "node:http";
import net from "node:net";
import type { Logger } from "./logger.ts";
import type { ServiceMetrics } from "./metrics.ts";
import { requestIdFrom, type RequestRecord } from "./request-context.ts";

/** How long a client may take to send a request's headers, and the whole request (then 408). */
export const HEADERS_TIMEOUT_MS = 20_000;
export const REQUEST_TIMEOUT_MS = 30_000;
/** Longer than the usual 60 s idle timeout of load balancers, so that they close first. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface ServiceServerOptions {
  logger: Logger;
  metrics?: ServiceMetrics;
  /**
   * Answers one request. It sets `record.route` (the route's template) and
   * `record.user` for the request's log line, and must not throw. The lines
   * it logs name `record.id`: given as a field, or by running the work in
   * the request's context (`runWithRequest`).
   */
  handle(req: http.IncomingMessage, res: http.ServerResponse, record: RequestRecord): Promise<void>;
  /**
   * The answer to a request Node's parser refused before `handle` could see
   * it (an unknown method, a malformed line, headers past 16 KiB, a request
   * that took too long): the service's error body and headers (Node's own
   * answer is a bare status line).
   */
  refusedRequest(status: number, message: string): RefusedRequestAnswer;
  /**
   * True when `handle` puts `x-request-id: record.id` in the headers of every
   * answer it sends. Otherwise the server sets it on the response before
   * `handle` runs. The first is cheaper: node:http writes the headers of a
   * response that has none set yet in one step, and those of one that has
   * any set one by one (about 2 % of the ledger's posts a second,
   * docs/benchmarks.md, "Posting").
   */
  answersCarryRequestId?: boolean;
}

/** An answer written on the connection by hand: lower-case header names. */
export interface RefusedRequestAnswer {
  headers: Record<string, string>;
  body: string;
}

/** What Node's parser refused, by its error code: 400 unless named here. */
const REFUSAL_BY_CODE: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "the request's headers are larger than 16 KiB"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "the request took too long to arrive"],
};
const UNPARSED: [number, string] = [
  400,
  "the request is not one this server can read (HTTP/1.1, a known method)",
];

export interface ServiceServer {
  server: http.Server;
  /** True from the shutdown signal on: readiness answers 503. */
  isDraining(): boolean;
  /**
   * Drained shutdown: from now on every answer says `Connection: close` and
   * readiness is 503, while requests are served as before for `drainMs` (the
   * load balancer's time to notice); then the listener closes, idle
   * connections are closed, and the requests still in flight are finished.
   * No connection that holds a request, even half of one, is closed under it:
   * a request the server read is answered.
   */
  drain(drainMs: number): Promise<void>;
}

/**
 * A connection and the requests on it being answered (more than one when the
 * client pipelines). Kept per connection, not in one Set of every response:
 * a long-lived Set that adds and deletes on every request replaces its hash
 * table every few requests, and each replaced table points to the next and to
 * the responses it held. Once one of them is in V8's old generation, every
 * scavenge keeps the whole chain alive and promotes it, with every request and
 * answer in it: young-generation pauses were three times as long
 * (docs/benchmarks.md, "Garbage collection under load").
 */
interface TrackedSocket {
  answering: http.ServerResponse[];
  /** bytesRead when the socket last had no request in flight: more since means a request is arriving. */
  bytesWhenIdle: number;
}

/**
 * The HTTP server of either service: Node's limits set (headers 20 s, whole
 * request 30 s with 408, keep-alive 65 s), an `X-Request-Id` on every answer
 * (the client's when usable, else a new one), one JSON log line and one
 * metrics observation per request, and a drained shutdown.
 */
export function createServiceServer({
  logger,
  metrics,
  handle,
  refusedRequest,
  answersCarryRequestId = false,
}: ServiceServerOptions): ServiceServer {
  let draining = false;
  /** The listener has closed: a connection that goes idle from now on is closed at once. */
  let closing = false;
  const sockets = new Map<net.Socket, TrackedSocket>();
  /** Each answer's request, for a refusal the server writes on the socket itself (408). */
  const records = new WeakMap<http.ServerResponse, RequestRecord>();

  function logRequest(record: RequestRecord, status: number, seconds: number) {
    logger.info(
      {
        request_id: record.id,
        method: record.method,
        route: record.route,
        status,
        duration_ms: Math.round(seconds * 1e4) / 10,
        ...(record.user ? { user: record.user } : {}),
      },
      "request",
    );
  }

  /**
   * Node's own answers to what it takes for requests that it passes on: a bare
   * status line (417 to an `Expect` it does not know, 400 to an HTTP/1.1
   * request without `Host`), or a connection closed unanswered (CONNECT, whose
   * target is a host, not a path). Each gets the service's refusal here.
   */
  function refusalOf(req: http.IncomingMessage): [number, string] | null {
    const expect = req.headers.expect;
    // As Node reads it: a value that names 100-continue is answered 100 Continue and served.
    if (expect !== undefined && !/(?:^|\W)100-continue(?:$|\W)/i.test(expect))
      return [417, "the only Expect understood is 100-continue"];
    if (req.headers.host === undefined && req.httpVersion === "1.1")
      return [400, "an HTTP/1.1 request needs a Host header"];
    return null;
  }

  function answerRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const started = process.hrtime.bigint();
    const record: RequestRecord = {
      id: requestIdFrom(req.headers["x-request-id"], randomUUID),
      method: req.method ?? "GET",
      route: "unmatched",
    };
    records.set(res, record);
    const socket = sockets.get(req.socket);
    socket?.answering.push(res);
    if (!answersCarryRequestId) res.setHeader("x-request-id", record.id);
    if (draining) res.setHeader("connection", "close");
    res.once("close", () => {
      if (socket) {
        socket.answering.splice(socket.answering.indexOf(res), 1);
        if (socket.answering.length === 0) {
          socket.bytesWhenIdle = req.socket.bytesRead;
          // An answer whose headers went out before the drain said keep-alive: its connection,
          // idle now, would stay open until the deadline below. One whose request was not read to
          // its end (an early refusal of its body) is left to that deadline: closed with bytes
          // unread, the kernel would reset it and the answer could be lost.
          if (closing && req.complete) req.socket.destroy();
        }
      }
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = res.writableFinished ? res.statusCode : (record.refusedWith ?? 499);
      metrics?.observeRequest(record.method, record.route, status, seconds);
      logRequest(record, status, seconds);
    });
    const refusal = refusalOf(req);
    if (refusal) {
      record.route = "refused";
      const { headers, body } = refusedRequest(...refusal);
      res.writeHead(refusal[0], { ...headers, "x-request-id": record.id, connection: "close" }).end(body);
      return;
    }
    void handle(req, res, record);
  }

  const server = http.createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      // How often Node looks for requests past those limits (default 30 s).
      connectionsCheckingInterval: 1_000,
      // Refused by answerRequest, with the service's answer.
      requireHostHeader: false,
    },
    answerRequest,
  );
  server.on("checkExpectation", answerRequest);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // As Node's own answer: only when nothing of an answer went out on this
  // connection yet; then the connection closes.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: net.Socket) => {
    const answering = (socket as net.Socket & { _httpMessage?: http.ServerResponse })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    refuseOnSocket(socket, ...(REFUSAL_BY_CODE[error.code ?? ""] ?? UNPARSED), answering);
  });
  server.on("connect", (_req: http.IncomingMessage, socket: net.Socket) => {
    refuseOnSocket(socket, 400, "the request target is not a path (CONNECT is not served)");
  });

  /**
   * Writes the service's refusal on a connection whose request `handle` never
   * saw (Node's parser refused it, or it is a CONNECT), and closes it.
   */
  function refuseOnSocket(
    socket: net.Socket,
    status: number,
    message: string,
    answering?: http.ServerResponse,
  ): void {
    // A request read in part (its body too slow: 408) has its record and its log line, with this
    // status; one not read at all (headers too large, not HTTP) gets an id and a line here, even
    // behind a request of the same connection still being answered.
    const partlyRead = answering && (status === 408 || !answering.req.complete);
    const record = partlyRead ? records.get(answering) : undefined;
    const id = record?.id ?? randomUUID();
    if (record) record.refusedWith = status;
    else {
      const unparsed: RequestRecord = { id, method: "-", route: "unparsed" };
      metrics?.observeRequest(unparsed.method, unparsed.route, status, 0);
      logRequest(unparsed, status, 0);
    }
    const { headers, body } = refusedRequest(status, message);
    const lines = Object.entries({
      ...headers,
      "x-request-id": id,
      "content-length": String(Buffer.byteLength(body)),
      connection: "close",
    }).map(([name, value]) => `${name}: ${value}`);
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${lines.join("\r\n")}\r\n\r\n${body}`);
  }
  server.on("connection", (socket: net.Socket) => {
    sockets.set(socket, { answering: [], bytesWhenIdle: 0 });
    socket.once("close", () => sockets.delete(socket));
  });

  async function drain(drainMs: number) {
    draining = true;
    for (const { answering } of sockets.values())
      for (const res of answering) if (!res.headersSent) res.setHeader("connection", "close");
    logger.info({ drain_ms: drainMs, open_connections: sockets.size }, "draining");
    await new Promise((resolve) => setTimeout(resolve, drainMs));

    // net.Server's close: stop listening only. http.Server's would also close
    // "idle" connections, among them some whose next request has arrived.
    const closed = new Promise((resolve) => net.Server.prototype.close.call(server, resolve));
    closing = true;
    for (const [socket, state] of sockets) {
      if (state.answering.length === 0 && socket.bytesRead === state.bytesWhenIdle) socket.destroy();
    }
    const deadline = setTimeout(() => {
      logger.warn(
        { open_connections: sockets.size },
        "requests still open after the request timeout: closing them",
      );
      for (const socket of sockets.keys()) socket.destroy();
    }, REQUEST_TIMEOUT_MS + 5_000);
    await closed;
    clearTimeout(deadline);
    logger.info("drained");
  }

  return { server, isDraining: () => draining, drain };
}

/**
 * readBody on a real node:http server, with bodies sent over a raw socket:
 * whole, past the limit (declared or chunked), and cut off by a client that
 * goes away, which must end the read (not leave it waiting for ever).
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientAbortedError, readBody } from "../src/index.ts";

const LIMIT = 64;
/** What each read came to, by the request's X-Case header. */
const outcomes = new Map<string, { promise: Promise<string>; resolve(outcome: string): void }>();
const outcomeOf = (name: string) => {
  if (!outcomes.has(name)) {
    let resolve!: (outcome: string) => void;
    const promise = new Promise<string>((settle) => (resolve = settle));
    outcomes.set(name, { promise, resolve });
  }
  return outcomes.get(name)!;
};

let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const outcome = outcomeOf(String(req.headers["x-case"]));
    // A read that starts late, as after a wait for something else.
    const read = req.headers["x-read-after-ms"]
      ? new Promise<Buffer | null>((resolve) =>
          setTimeout(() => resolve(readBody(req, LIMIT)), Number(req.headers["x-read-after-ms"])),
        )
      : readBody(req, LIMIT);
    read.then(
      (body) => {
        outcome.resolve(body === null ? "too large" : `body ${body.toString("utf8")}`);
        res.end("read");
      },
      (error: unknown) =>
        outcome.resolve(error instanceof ClientAbortedError ? "aborted" : `failed ${error}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends `request` on a new connection; ends it after `wait` ms with a reset (the client gone) or waits for the answer. */
function send(request: string, { goAway = false } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(request);
      if (goAway) setTimeout(() => (socket.resetAndDestroy(), resolve()), 50);
    });
    socket.on("data", () => (socket.destroy(), resolve()));
    socket.on("error", (error) => (goAway ? resolve() : reject(error)));
  });
}

const head = (name: string, headers: string) =>
  `POST / HTTP/1.1\r\nHost: x\r\nX-Case: ${name}\r\nContent-Type: application/json\r\n${headers}\r\n`;

describe("readBody", () => {
  it("reads a whole body", async () => {
    await send(head("whole", "Content-Length: 7\r\n") + '{"a":1}');
    await expect(outcomeOf("whole").promise).resolves.toBe('body {"a":1}');
  });

  it("reads an empty body", async () => {
    await send(head("empty", "Content-Length: 0\r\n"));
    await expect(outcomeOf("empty").promise).resolves.toBe("body ");
  });

  it("reads a chunked body", async () => {
    await send(head("chunked", "Transfer-Encoding: chunked\r\n") + '3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n');
    await expect(outcomeOf("chunked").promise).resolves.toBe('body {"a":1}');
  });

  it("answers null for a body declared larger than the limit", async () => {
    await send(head("declared", `Content-Length: ${LIMIT + 1}\r\n`) + "x".repeat(LIMIT + 1));
    await expect(outcomeOf("declared").promise).resolves.toBe("too large");
  });

  it("answers null for a chunked body that grows past the limit, once it is all read", async () => {
    const chunk = "x".repeat(40);
    await send(
      head("grown", "Transfer-Encoding: chunked\r\n") + `28\r\n${chunk}\r\n28\r\n${chunk}\r\n0\r\n\r\n`,
    );
    await expect(outcomeOf("grown").promise).resolves.toBe("too large");
  });

  it("ends with ClientAbortedError when the client goes away mid-body", async () => {
    await send(head("gone", "Content-Length: 50\r\n") + '{"a":', { goAway: true });
    await expect(outcomeOf("gone").promise).resolves.toBe("aborted");
  });

  it("reads a body sent whole before the read began", async () => {
    await send(head("late", "Content-Length: 7\r\nX-Read-After-Ms: 100\r\n") + '{"a":1}');
    await expect(outcomeOf("late").promise).resolves.toBe('body {"a":1}');
  });

  it("ends with ClientAbortedError when the client went away before the read began", async () => {
    await send(head("gone early", "Content-Length: 50\r\nX-Read-After-Ms: 300\r\n") + '{"a":', {
      goAway: true,
    });
    await expect(outcomeOf("gone early").promise).resolves.toBe("aborted");
  });

  it("ends with ClientAbortedError when the client closes its side mid-body", async () => {
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () =>
        socket.end(head("half", "Content-Length: 50\r\n") + '{"a":', resolve),
      );
      socket.on("error", () => resolve());
    });
    await expect(outcomeOf("half").promise).resolves.toBe("aborted");
  });
});

import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.ts";
import { createServiceServer, type ServiceServer } from "../src/service-server.ts";

const silent = new Writable({ write: (_chunk, _encoding, done) => done() });

/** A service server whose requests to /wait and /stream are answered only when the test says so. */
async function startGatedServer() {
  const waiting: (() => void)[] = [];
  const service = createServiceServer({
    logger: createLogger("test", { destination: silent }),
    refusedRequest: (_status, message) => ({ headers: {}, body: message }),
    async handle(req, res) {
      // /stream: its headers and a first part go out at once, the rest when the test says so.
      if (req.url === "/stream") res.writeHead(200, { "content-type": "text/plain" }).write("first ");
      if (req.url !== "/") await new Promise<void>((resolve) => waiting.push(resolve));
      res.end("answered");
    },
  });
  service.server.listen(0, "127.0.0.1");
  await once(service.server, "listening");
  const { port } = service.server.address() as AddressInfo;
  return { service, port, waiting };
}

/** A GET on `agent`'s keep-alive connections: its status, Connection header and body. */
function get(port: number, path: string, agent: http.Agent) {
  return new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      })
      .on("error", reject);
  });
}

describe("service server, drained shutdown", () => {
  let service: ServiceServer | undefined;
  const agents: http.Agent[] = [];
  afterEach(() => {
    for (const agent of agents.splice(0)) agent.destroy();
    service?.server.close();
  });

  it("answers a request in flight when the drain starts with Connection: close, and closes idle connections", async () => {
    const gated = await startGatedServer();
    service = gated.service;
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const busyAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(idleAgent, busyAgent);

    expect((await get(gated.port, "/", idleAgent)).connection).toBe("keep-alive");
    const idleSocket = Object.values(idleAgent.freeSockets).flat()[0]!;
    const idleClosed = once(idleSocket, "close");

    const inFlight = get(gated.port, "/wait", busyAgent);
    while (gated.waiting.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const drained = service.drain(0);
    await idleClosed;

    gated.waiting[0]!();
    expect(await inFlight).toEqual({ status: 200, connection: "close", body: "answered" });
    await drained;
  });

  it("closes a keep-alive connection whose answer's headers went out before the drain once that answer ends", async () => {
    const gated = await startGatedServer();
    service = gated.service;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: "127.0.0.1", port: gated.port, path: "/stream", agent }, resolve).on("error", reject),
    );
    // Too late for Connection: close: the answer says keep-alive, and the listener closes under it.
    expect(response.headers.connection).toBe("keep-alive");
    const socketClosed = once(response.socket, "close");
    const drained = service.drain(100);
    let body = "";
    response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    // The answer ends after the drain's wait, once the listener has closed.
    await new Promise((resolve) => setTimeout(resolve, 200));
    gated.waiting[0]!();
    await once(response, "end");
    expect(body).toBe("first answered");
    // Before, the idle connection stayed open until the requests' deadline, 35 s later.
    const soon = new Promise((resolve) => setTimeout(() => resolve("still open after 2 s"), 2_000));
    expect(await Promise.race([Promise.all([socketClosed, drained]).then(() => "closed"), soon])).toBe(
      "closed",
    );
  });
});

describe("service server, X-Request-Id", () => {
  let service: ServiceServer | undefined;
  afterEach(() => void service?.server.close());

  /** A server whose handler answers with `headers` given to writeHead; each request's X-Request-Id lines as received. */
  async function idLinesOf(options: {
    answersCarryRequestId?: boolean;
    headers: (id: string) => http.OutgoingHttpHeaders;
  }) {
    service = createServiceServer({
      logger: createLogger("test", { destination: silent }),
      refusedRequest: (_status, message) => ({ headers: {}, body: message }),
      ...options,
      async handle(_req, res, record) {
        res.writeHead(200, options.headers(record.id)).end("answered");
      },
    });
    service.server.listen(0, "127.0.0.1");
    await once(service.server, "listening");
    const { port } = service.server.address() as AddressInfo;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get({ host: "127.0.0.1", port, agent: false, headers: { "x-request-id": "sent-id" } }, resolve)
        .on("error", reject),
    );
    response.resume();
    const { rawHeaders } = response;
    return rawHeaders.filter((_, i) => i % 2 === 1 && rawHeaders[i - 1]!.toLowerCase() === "x-request-id");
  }

  it("sets it on the response before the handler runs, by default", async () => {
    expect(await idLinesOf({ headers: () => ({ "content-type": "text/plain" }) })).toEqual(["sent-id"]);
  });

  it("leaves it to a handler whose answers carry it (answersCarryRequestId): once, and not at all when one does not", async () => {
    expect(
      await idLinesOf({ answersCarryRequestId: true, headers: (id) => ({ "x-request-id": id }) }),
    ).toEqual(["sent-id"]);
    service?.server.close();
    expect(await idLinesOf({ answersCarryRequestId: true, headers: () => ({}) })).toEqual([]);
  });
});

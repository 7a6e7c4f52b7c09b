/**
 * A client that sends its request slowly, or never finishes it, holds a
 * connection and a socket of the server. Headers must arrive within 20 s and
 * the whole request within 30 s; then the server answers 408 or closes.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from "@app/service";
import { startLedgerServer, type LedgerServer } from "./ledger-server.ts";
import { startResumeApi } from "./resume-api.ts";
import { newUser } from "./tokens.ts";
import type { WebServer } from "./web-server.ts";

let web: WebServer;
let ledger: LedgerServer;

beforeAll(async () => {
  [web, ledger] = await Promise.all([startResumeApi(), startLedgerServer()]);
});

afterAll(async () => {
  await Promise.all([web?.stop(), ledger?.stop()]);
});

/** Sends `text` and nothing more; resolves when the server closes, with what it sent and when. */
function holdOpen(baseUrl: string, text: string): Promise<{ ms: number; received: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = Date.now();
    let received = "";
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("error", () => {});
    socket.on("close", () => resolve({ ms: Date.now() - started, received }));
  });
}

describe("slow clients", () => {
  it("cut off a request whose body stops coming within 30 s, and one whose headers stop within 20 s", async () => {
    const partialBody =
      "POST /me/skills HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n" +
      '{"name":"slow"';
    // Signed in: without a token the resume service answers 401 before it reads a body.
    const { authorization } = await newUser();
    const partialHeaders = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n";
    const [webBody, ledgerBody, webHeaders, ledgerHeaders] = await Promise.all([
      holdOpen(
        web.url,
        partialBody.replace("Host: localhost\r\n", `Host: localhost\r\nAuthorization: ${authorization}\r\n`),
      ),
      holdOpen(ledger.url, partialBody.replace("/me/skills", "/transactions")),
      holdOpen(web.url, partialHeaders),
      holdOpen(ledger.url, partialHeaders),
    ]);
    console.log(
      `cut off after (ms): body web ${webBody.ms}, ledger ${ledgerBody.ms}; headers web ${webHeaders.ms}, ledger ${ledgerHeaders.ms}`,
    );
    for (const [what, cut, limit] of [
      ["web body", webBody, REQUEST_TIMEOUT_MS],
      ["ledger body", ledgerBody, REQUEST_TIMEOUT_MS],
      ["web headers", webHeaders, HEADERS_TIMEOUT_MS],
      ["ledger headers", ledgerHeaders, HEADERS_TIMEOUT_MS],
    ] as const) {
      expect(cut.ms, what).toBeGreaterThanOrEqual(limit - 1_000);
      // Node looks for overdue requests every second.
      expect(cut.ms, what).toBeLessThan(limit + 4_000);
      expect(cut.received === "" || cut.received.startsWith("HTTP/1.1 408"), `${what}: ${cut.received}`).toBe(
        true,
      );
      if (cut.received !== "") expect(cut.received, what).toContain('"error":"REQUEST_TIMEOUT"');
    }
    // The server cut it, the client had not gone: its line says 408 (not 499), with the answer's id.
    expect(ledgerBody.received).toMatch(/^HTTP\/1\.1 408/);
    const id = /\r\nx-request-id: ([^\r]+)\r\n/i.exec(ledgerBody.received)?.[1];
    // Written when the server's side of the answer closes, which may come just after the client's.
    const lineOf = () => ledger.logLines.find((line) => line.msg === "request" && line.request_id === id);
    for (let waited = 0; !lineOf() && waited < 2_000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    expect(lineOf()).toMatchObject({ route: "/transactions", status: 408 });
  }, 45_000);
});

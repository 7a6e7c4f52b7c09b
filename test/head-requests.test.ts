/**
 * HEAD wherever GET is, on both services: the same status and headers as the
 * GET (Content-Length included), and no body.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpClient, type HttpResult } from "./http-client.ts";
import { ledgerClient } from "./ledger-client.ts";
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

const SAME_HEADERS = ["content-type", "content-length", "api-version", "allow"];

/** `streamed`: tRPC writes its answers as they come, so neither carries a Content-Length. */
function expectHeadLikeGet(path: string, get: HttpResult, head: HttpResult, { streamed = false } = {}) {
  expect(get.status, path).toBeLessThan(500);
  // Content-Length included: the GET's body length, which HEAD announces without sending.
  expect(get.headers.get("content-length"), path).toBe(streamed ? null : String(Buffer.byteLength(get.text)));
  expect(head.status, path).toBe(get.status);
  for (const name of SAME_HEADERS)
    expect(head.headers.get(name), `${path} ${name}`).toBe(get.headers.get(name));
  expect(head.text, path).toBe("");
}

describe("HEAD", () => {
  it("answers every GET route of the resume service like its GET, without the body", async () => {
    const { authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    await api.put("/me/profile", { name: "Head" });
    const hobby = (await api.post<{ id: string }>("/me/hobbies", { name: "Chess" })).body.id;
    for (const path of [
      "/me/profile",
      "/me/hobbies",
      `/me/hobbies/${hobby}`,
      `/me/hobbies/${randomUUID()}`,
      "/me/hobbies/not-a-uuid",
      "/me/resume",
      "/me/resume?format=markdown",
      "/me/resume?format=jsonresume",
      "/me/resume?format=html&theme=stackoverflow",
      "/me/tokens",
      "/healthz",
      "/livez",
    ]) {
      const get = await api.get(path);
      expectHeadLikeGet(path, get, await api.send("HEAD", path));
    }
    const signedOut = httpClient(web.url);
    expectHeadLikeGet(
      "/me/resume, no token",
      await signedOut.get("/me/resume"),
      await signedOut.send("HEAD", "/me/resume"),
    );
  });

  it("answers the editor's tRPC queries like their GET, without the body", async () => {
    const { authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    const check = async (path: string, status: number) => {
      const get = await api.get(path);
      expect(get.status, path).toBe(status);
      expectHeadLikeGet(path, get, await api.send("HEAD", path), { streamed: true });
    };
    await check("/api/trpc/profile.get", 404);
    await api.put("/me/profile", { name: "Head" });
    await check("/api/trpc/profile.get", 200);
    await check(`/api/trpc/profile.get,hobbies.list?batch=1&input=${encodeURIComponent("{}")}`, 200);
    await check("/api/trpc/no.such.query", 404);
  });

  it("answers every GET route of the ledger like its GET, signed or open, without the body", async () => {
    const client = ledgerClient(ledger.url);
    const [cash, sales] = [await client.account(), await client.account()];
    const posted = await client.post<{ id: string }>("/transactions", {
      idempotency_key: `head-${randomUUID()}`,
      entries: [
        { account_id: cash, amount: 10 },
        { account_id: sales, amount: -10 },
      ],
    });
    for (const path of [
      "/accounts",
      `/accounts/${cash}`,
      `/accounts/${cash}/entries?limit=1`,
      `/accounts/${cash}/balance`,
      "/balances",
      `/transactions/${posted.body.id}`,
      `/transactions/${randomUUID()}`,
      "/healthz",
      "/livez",
      "/openapi.json",
    ]) {
      // Other test files write to the same ledger: a HEAD is judged against GETs on both sides of it that agree.
      for (let attempt = 1; ; attempt++) {
        const get = await client.send("GET", path);
        const head = await client.send("HEAD", path);
        if (attempt < 5 && (await client.send("GET", path)).text !== get.text) continue;
        expectHeadLikeGet(path, get, head);
        break;
      }
    }
  });
});

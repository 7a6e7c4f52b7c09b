/**
 * A PostgreSQL that stops answering without closing anything (a failover, a
 * lost network, a frozen host) looks like every process of the server stopped
 * with SIGSTOP. Both services run against a server of their own, their pools
 * warm; the server is frozen, then thawed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezePostgres, signal } from "./freeze-postgres.ts";
import { httpClient, type HttpResult } from "./http-client.ts";
import { ledgerClient } from "./ledger-client.ts";
import { startServicesOnOwnDatabase, type ServicesOnOwnDatabase } from "./services-on-own-database.ts";
import { newUser } from "./tokens.ts";

let services: ServicesOnOwnDatabase;
let frozen: number[] = [];

beforeAll(async () => {
  services = await startServicesOnOwnDatabase("freeze");
}, 120_000);

afterAll(async () => {
  signal(frozen, "SIGCONT");
  await services?.stop();
});

/** Runs every call at once; resolves to each one's answer and how long it took. */
async function timed(calls: Record<string, () => Promise<HttpResult>>) {
  return Object.fromEntries(
    await Promise.all(
      Object.entries(calls).map(async ([name, call]) => {
        const started = Date.now();
        const result = await call();
        return [name, { result, ms: Date.now() - started }] as const;
      }),
    ),
  );
}

describe("PostgreSQL freezes (SIGSTOP) and thaws (SIGCONT)", () => {
  it("answers readiness 503 within 2 s and every route 503 within 5 s; serves again within 5 s of the thaw", async () => {
    const resume = httpClient(services.webUrl, { authorization: (await newUser()).authorization });
    const ledger = ledgerClient(services.ledgerUrl);
    const [cash, sales] = [await ledger.account(), await ledger.account()];
    expect((await resume.put("/me/profile", { name: "Frozen" })).status).toBe(200);
    let key = 0;
    const post = () =>
      ledger.post("/transactions", {
        idempotency_key: `freeze-${(key += 1)}-${Date.now()}`,
        entries: [
          { account_id: cash, amount: 100 },
          { account_id: sales, amount: -100 },
        ],
      });
    const calls: Record<string, () => Promise<HttpResult>> = {
      "GET /me/profile": () => resume.get("/me/profile"),
      "PUT /me/profile": () => resume.put("/me/profile", { name: "Frozen", headline: "still here" }),
      "GET /me/skills": () => resume.get("/me/skills"),
      "POST /me/skills": () => resume.post("/me/skills", { name: "Waiting", category: "soft-skill" }),
      "GET /me/resume": () => resume.get("/me/resume"),
      "GET /accounts": () => ledger.get("/accounts"),
      "POST /accounts": () => ledger.post("/accounts", { name: "frozen", type: "asset", currency: "USD" }),
      "GET /accounts/{id}/balance": () => ledger.get(`/accounts/${cash}/balance`),
      "GET /accounts/{id}/entries": () => ledger.get(`/accounts/${cash}/entries`),
      "POST /transactions": post,
    };
    // Warm pools: several connections each, idle and ready when the server stops.
    for (let round = 0; round < 3; round += 1) {
      for (const [name, { result }] of Object.entries(await timed(calls))) {
        expect(result.status, name).toBeLessThan(300);
      }
    }

    frozen = await freezePostgres(services.postgres.directory);

    const health = await timed({
      "web /healthz": () => httpClient(services.webUrl).get("/healthz"),
      "ledger /healthz": () => httpClient(services.ledgerUrl).get("/healthz"),
      "web /livez": () => httpClient(services.webUrl).get("/livez"),
      "ledger /livez": () => httpClient(services.ledgerUrl).get("/livez"),
    });
    for (const name of ["web /healthz", "ledger /healthz"]) {
      expect(health[name]!.result.status, name).toBe(503);
      expect(health[name]!.ms, name).toBeLessThan(2_000);
    }
    for (const name of ["web /livez", "ledger /livez"]) expect(health[name]!.result.status, name).toBe(200);

    const during = await timed(calls);
    const times = Object.fromEntries(Object.entries(during).map(([name, { ms }]) => [name, ms]));
    console.log("answers while PostgreSQL is frozen (ms):", JSON.stringify(times));
    for (const [name, { result, ms }] of Object.entries(during)) {
      expect(result.status, name).toBe(503);
      expect(ms, name).toBeLessThan(5_000);
      expect(result.headers.get("retry-after"), name).toBe("2");
      expect(result.body, name).toEqual({
        statusCode: 503,
        error: "SERVICE_UNAVAILABLE",
        message: expect.any(String),
      });
    }

    // The editor's own endpoint answers the same 503, with its Retry-After.
    const editorCall = await fetch(`${services.webUrl}/api/trpc/profile.get`, {
      headers: { authorization: (await newUser()).authorization },
    });
    expect([editorCall.status, editorCall.headers.get("retry-after")]).toEqual([503, "2"]);

    signal(frozen, "SIGCONT");
    frozen = [];
    const thawed = Date.now();
    for (const [name, call] of Object.entries(calls)) {
      let status = 0;
      while (Date.now() - thawed < 5_000) {
        status = (await call()).status;
        if (status < 300) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status, `${name} after the thaw`).toBeLessThan(300);
    }
    console.log(`every route answered normally ${Date.now() - thawed} ms after the thaw`);
    expect((await httpClient(services.webUrl).get("/healthz")).status).toBe(200);
    expect((await httpClient(services.ledgerUrl).get("/healthz")).status).toBe(200);
  }, 60_000);

  it("tells of each hold that expires while PostgreSQL is frozen or after its thaw (hold.expired) once; the failed sweeps are logged once", async () => {
    const ledger = ledgerClient(services.ledgerUrl);
    const [wallet, shop] = [await ledger.account("USD", "liability"), await ledger.account("USD", "income")];
    const hold = async (seconds: number, n: number) => {
      const created = await ledger.post<{ id: string; expires_at: string }>("/transactions", {
        idempotency_key: `frozen-hold-${seconds}-${n}-${Date.now()}`,
        entries: [
          { account_id: wallet, amount: 1 },
          { account_id: shop, amount: -1 },
        ],
        hold: { expires_in_seconds: seconds },
      });
      expect(created.status).toBe(201);
      return created.body;
    };
    type FeedEvent = { type: string; created_at: string; data: { id: string; status: string } };
    const expiredOf = (events: FeedEvent[]) => events.filter(({ type }) => type === "hold.expired");
    const endOfFeed = async () =>
      (await ledger.get<{ next_cursor: string }>("/events?after=end")).body.next_cursor;

    // Failed sweeps are said once until one succeeds: for this test's to be said, one must have
    // succeeded since the freeze before. A hold of a second that is told expired is one that did.
    const told = await hold(1, 0);
    for (let cursor = await endOfFeed(), deadline = Date.now() + 15_000; ;) {
      if (Date.now() > deadline) throw new Error(`hold ${told.id} was not told expired within 15 s`);
      const page = await ledger.get<{ items: FeedEvent[]; next_cursor: string }>(
        `/events?after=${cursor}&wait_seconds=1`,
      );
      if (page.status !== 200) continue; // the pool still finding its feet after the thaw before
      if (expiredOf(page.body.items).some((event) => event.data.id === told.id)) break;
      cursor = page.body.next_cursor;
    }
    const start = await endOfFeed();
    const logAtStart = services.ledgerLog().length;
    // A sweep sent just before the freeze runs at the thaw, on a server that has not yet seen its
    // client give up, and may write the first holds' events itself; only a sweep after the
    // failures can write the later ones'.
    const whileFrozen = await Promise.all([1, 2].map((n) => hold(2, n)));
    const afterThaw = await Promise.all([1, 2].map((n) => hold(8, n)));

    frozen = await freezePostgres(services.postgres.directory);
    const frozenAt = Date.now();
    // Frozen past the first expiries, through several of the ledger's sweeps (one a second).
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    signal(frozen, "SIGCONT");
    frozen = [];
    const thawed = Date.now();
    for (const { expires_at } of whileFrozen) expect(Date.parse(expires_at)).toBeGreaterThan(frozenAt);
    for (const { expires_at } of afterThaw) expect(Date.parse(expires_at)).toBeGreaterThan(thawed + 1_000);

    const holds = [...whileFrozen, ...afterThaw];
    const expired: FeedEvent[] = [];
    for (let cursor = start; expired.length < holds.length && Date.now() - thawed < 15_000;) {
      const page = await ledger.get<{ items: FeedEvent[]; next_cursor: string }>(
        `/events?after=${cursor}&wait_seconds=1`,
      );
      if (page.status !== 200) continue; // the pool still finding its feet after the thaw
      expired.push(...expiredOf(page.body.items));
      cursor = page.body.next_cursor;
    }
    // Two more sweeps write nothing more.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const all = await ledger.get<{ items: FeedEvent[] }>(`/events?after=${start}&limit=1000`);
    expect(expiredOf(all.body.items)).toEqual(expired);
    expect(expired.map((event) => event.data.id).sort()).toEqual(holds.map(({ id }) => id).sort());
    for (const event of expired) {
      const { expires_at } = holds.find(({ id }) => id === event.data.id)!;
      expect([event.created_at, event.data.status]).toEqual([expires_at, "expired"]);
    }
    const warnings = services
      .ledgerLog()
      .slice(logAtStart)
      .split("\n")
      .filter((line) => line.includes("the sweep for expired holds failed"));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: "warn" });
  }, 60_000);

  it("a SIGTERM while PostgreSQL is frozen ends both servers within seconds of their drain, exit code 0", async () => {
    const ledger = ledgerClient(services.ledgerUrl);
    expect((await ledger.get("/accounts")).status).toBe(200); // the pool and its connections in use
    frozen = await freezePostgres(services.postgres.directory);
    const started = Date.now();
    const exits = services.servers.map(
      (child) => new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))),
    );
    for (const child of services.servers) child.kill("SIGTERM");
    // The drain is 0 here; closing connections to a database that never answers is given 3 s.
    expect(await Promise.all(exits)).toEqual([0, 0]);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 60_000);
});

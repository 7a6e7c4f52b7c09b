/**
 * GET /events on two real ledger processes over one database (LISTEN on a
 * direct connection, also when the run goes through PgBouncer), with writers
 * on both and raw SQL sessions that commit out of order on purpose. The
 * database is this file's own: every write of the database is in the feed,
 * and other test files' writes would wake its waits.
 */
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrate } from "../scripts/database.ts";
import { env } from "../scripts/env.ts";
import { startLedger, stopProcess, waitForHealthy } from "../scripts/processes.ts";
import { freePort } from "./free-port.ts";
import { ledgerClient, type LedgerClient } from "./ledger-client.ts";
import { FULL_KEY } from "./ledger-server.ts";
import { withDatabaseName } from "./postgres-admin.ts";
import { createScratchDatabase, type ScratchDatabase } from "./scratch-database.ts";

interface FeedEvent {
  id: string;
  type: string;
  created_at: string;
  data: { id: string; status?: string; [field: string]: unknown } | null;
}
interface FeedPage {
  items: FeedEvent[];
  next_cursor: string;
}

let root: string;
let database: ScratchDatabase;
/** The database as the services reach it: through PgBouncer when the run goes through it. */
let serviceUrl: string;
const processes: ChildProcess[] = [];
let clients: LedgerClient[] = [];

async function startInstance(extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const child = startLedger(
    {
      DATABASE_URL: serviceUrl,
      DATA_DIR: env.DATA_DIR,
      HOST: "127.0.0.1",
      PORT: 0,
      LEDGER_PORT: port,
      SHUTDOWN_DRAIN_MS: 0,
    },
    "quiet",
    {
      LEDGER_CREDENTIALS_FILE: path.join(root, "credentials.json"),
      DATABASE_PREPARED_STATEMENTS: String(inject("preparedStatements")),
      DATABASE_LISTEN_URL: database.url,
      // Waits that only looked again on their own would answer a write seconds late: LISTEN is what wakes them.
      LEDGER_EVENTS_POLL_MS: "2000",
      // A hold's hold.expired within a fifth of a second of its expiry, for the hold.expired tests' timing.
      LEDGER_EXPIRED_HOLDS_SWEEP_MS: "200",
      ...extraEnv,
    },
  );
  processes.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${url}/healthz`);
  return { child, client: ledgerClient(url) };
}

beforeAll(async () => {
  database = await createScratchDatabase();
  await migrate(database.url);
  serviceUrl = withDatabaseName(inject("databaseUrl"), new URL(database.url).pathname.slice(1));
  root = await mkdtemp(path.join(tmpdir(), "event-feed-"));
  await writeFile(path.join(root, "credentials.json"), JSON.stringify([FULL_KEY]));
  clients = (await Promise.all([startInstance(), startInstance()])).map((instance) => instance.client);
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((child) => stopProcess(child)));
  await rm(root, { recursive: true, force: true });
  await database?.drop();
});

const key = () => `feed-${randomUUID()}`;

/**
 * Posts per writer of the out-of-order test: 2,000 in all. Through PgBouncer
 * (npm test's second run, which shows the feed's statements work through the
 * pooler beside ten other files) 400, so that run does not starve the others.
 */
const POSTS_PER_WRITER = inject("preparedStatements") ? 125 : 25;

async function feed(client: LedgerClient, query: string): Promise<FeedPage> {
  const answer = await client.get<FeedPage>(`/events?${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

const endOfFeed = async (client: LedgerClient) => (await feed(client, "after=end")).next_cursor;

/** Posts `amount` from one account to the other through `client`; the new transaction's id. */
async function move(client: LedgerClient, from: string, to: string, amount = 1) {
  const posted = await client.post("/transactions", {
    idempotency_key: key(),
    entries: [
      { account_id: from, amount },
      { account_id: to, amount: -amount },
    ],
  });
  expect(posted.status, posted.text).toBe(201);
  return posted.body.id as string;
}

describe("GET /events", () => {
  it("answers each kind of change once, in order, with the resource as GET answers it", async () => {
    const [client] = clients;
    const start = await endOfFeed(client!);
    const account = await client!.post("/accounts", { name: "feed", type: "liability", currency: "EUR" });
    const other = await client!.account("EUR", "asset");
    const patched = await client!.send("PATCH", `/accounts/${account.body.id}`, { metadata: { a: "1" } });
    const posted = await move(client!, other, account.body.id as string, 5);
    const hold = await client!.post("/transactions", {
      idempotency_key: key(),
      entries: [
        { account_id: other, amount: 2 },
        { account_id: account.body.id, amount: -2 },
      ],
      hold: { expires_in_seconds: 60 },
    });
    const voided = await client!.post(`/transactions/${hold.body.id}/void`, { idempotency_key: key() });
    expect(voided.status).toBe(200);

    // A transaction still open anywhere on the server (another test's) holds the feed back a moment.
    let page = await feed(client!, `after=${start}`);
    for (const deadline = Date.now() + 10_000; page.items.length < 6 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      page = await feed(client!, `after=${start}`);
    }
    expect(page.items.map((e) => [e.type, e.data?.id])).toEqual([
      ["account.created", account.body.id],
      ["account.created", other],
      ["account.updated", account.body.id],
      ["transaction.posted", posted],
      ["hold.created", hold.body.id],
      ["hold.voided", hold.body.id],
    ]);
    // An account event has the account as that change left it; a transaction's, as GET answers it now.
    expect(page.items[0]!.data).toEqual(account.body);
    expect(page.items[2]!.data).toEqual(patched.body);
    expect(page.items[3]!.data).toEqual((await client!.get(`/transactions/${posted}`)).body);
    expect(page.items[4]!.data).toMatchObject({ id: hold.body.id, status: "voided" });
    expect(new Set(page.items.map((e) => e.id)).size).toBe(6);

    // From the last cursor, nothing more; paging by one over both instances gives the same events.
    expect((await feed(client!, `after=${page.next_cursor}`)).items).toEqual([]);
    const oneByOne: FeedEvent[] = [];
    let cursor = start;
    for (let i = 0; i < 6; i++) {
      const next = await feed(clients[i % 2]!, `after=${cursor}&limit=1`);
      oneByOne.push(...next.items);
      cursor = next.next_cursor;
    }
    expect(oneByOne).toEqual(page.items);
  });

  it("gives a reader every post once, never before its commit, while 16 writers on two instances post 2,000 and raw sessions commit out of order", async () => {
    const [cash, sales] = [await clients[0]!.account(), await clients[0]!.account("USD", "income")];
    let cursor = await endOfFeed(clients[0]!);
    const expected = new Set<string>();
    const seen = new Map<string, number>();
    let writing = true;
    let catchUpUntil = Infinity; // once writing ends, the reader has 15 s to see the rest

    const reader = (async () => {
      const missing = () => [...expected].some((id) => !seen.has(id));
      for (let round = 0; writing || (missing() && Date.now() < catchUpUntil); round++) {
        const page = await feed(clients[round % 2]!, `after=${cursor}&limit=500&wait_seconds=1`);
        for (const event of page.items) {
          if (event.type !== "transaction.posted") continue;
          // Built by the reader's query from the transaction row: null if it had not committed.
          expect(event.data, `event ${event.id}`).not.toBeNull();
          seen.set(event.data!.id, (seen.get(event.data!.id) ?? 0) + 1);
        }
        cursor = page.next_cursor;
      }
    })();

    const writers = Array.from({ length: 16 }, async (_, writer) => {
      for (let i = 0; i < POSTS_PER_WRITER; i++)
        expected.add(await move(clients[(writer + i) % 2]!, cash, sales));
    });
    // Sessions that take a transaction id, write, then sleep before they commit: later ids commit first.
    const rolledBack = randomUUID();
    const lateSessions = Array.from({ length: 4 }, async (_, session) => {
      const sql = new pg.Client({ connectionString: database.url });
      await sql.connect();
      try {
        for (let i = 0; i < 5; i++) {
          const id = session === 0 && i === 4 ? rolledBack : randomUUID();
          await sql.query("BEGIN");
          await sql.query(
            `INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date)
             VALUES ($1::uuid, 'raw', $2, repeat('0', 64), current_date)`,
            [id, id],
          );
          await sql.query(
            `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
             VALUES (gen_random_uuid(), $1::uuid, $2::uuid, 'USD', 3, current_date, 0),
                    (gen_random_uuid(), $1::uuid, $3::uuid, 'USD', -3, current_date, 1)`,
            [id, cash, sales],
          );
          await sql.query("SELECT pg_sleep($1)", [0.1 + Math.random() * 0.5]);
          await sql.query(id === rolledBack ? "ROLLBACK" : "COMMIT");
          if (id !== rolledBack) expected.add(id);
        }
      } finally {
        await sql.end();
      }
    });
    await Promise.all([...writers, ...lateSessions]);
    catchUpUntil = Date.now() + 15_000;
    writing = false;
    await reader;

    expect(expected.size).toBe(16 * POSTS_PER_WRITER + 19);
    expect([...expected].filter((id) => seen.get(id) !== 1)).toEqual([]);
    expect(seen.has(rolledBack)).toBe(false);
    expect(seen.size).toBe(expected.size);
  }, 180_000);

  it("answers a waiting reader within 100 ms of a commit on the other instance", async () => {
    const [cash, sales] = [await clients[0]!.account(), await clients[0]!.account("USD", "income")];
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      // Events wait for every older write transaction of the PostgreSQL server (docs/operations.md):
      // while another test file's is open, older events (the accounts above) may still come first.
      // The reader reads on until its post comes, and the answer that brings it is timed.
      let postedAs!: (id: string) => void;
      const posted = new Promise<string>((resolve) => (postedAs = resolve));
      const reader = (async () => {
        let after = await endOfFeed(clients[1]!);
        const seen: unknown[] = [];
        for (;;) {
          const answer = await clients[1]!.get<FeedPage>(`/events?after=${after}&wait_seconds=10`);
          const at = performance.now();
          seen.push(...answer.body.items.map((e) => e.data?.id));
          if (seen.includes(await posted)) return { seen, at };
          expect(answer.body.items, "a wait ended without the post").not.toEqual([]);
          after = answer.body.next_cursor;
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const id = await move(clients[0]!, cash, sales);
      const committedBy = performance.now();
      postedAs(id);
      const { seen, at } = await reader;
      expect(seen.filter((seenId) => seenId === id)).toHaveLength(1);
      delays.push(at - committedBy);
    }
    // The median, well before a poll (250 ms), so that one pause of a shared CI machine, or another
    // test file's transaction, is not the answer.
    expect(delays.sort((a, b) => a - b)[2], delays.join(", ")).toBeLessThan(100);
  });

  it("ends an idle wait after wait_seconds with no items and the same cursor", async () => {
    const cursor = await endOfFeed(clients[0]!);
    const started = performance.now();
    const page = await feed(clients[0]!, `after=${cursor}&wait_seconds=1`);
    const waited = performance.now() - started;
    expect(page).toEqual({ items: [], next_cursor: cursor });
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(3_000);
  });

  it("refuses a bad cursor, limit or wait (400)", async () => {
    for (const query of [
      "after=nope",
      "after=",
      "limit=0",
      "limit=1001",
      "wait_seconds=31",
      "wait_seconds=-1",
    ]) {
      const answer = await clients[0]!.get(`/events?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toMatchObject({ statusCode: 400, error: "BAD_REQUEST" });
    }
  });

  it("ends waiting requests at once on SIGTERM, with their answer as it is", async () => {
    const drainMs = 3_000;
    const { child, client } = await startInstance({ SHUTDOWN_DRAIN_MS: String(drainMs) });
    const cursor = await endOfFeed(client);
    const waits = Array.from({ length: 3 }, () =>
      client.get<FeedPage>(`/events?after=${cursor}&wait_seconds=30`),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalled = performance.now();
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const answers = await Promise.all(waits);
    expect(performance.now() - signalled).toBeLessThan(1_000);
    for (const answer of answers) expect(answer.body).toEqual({ items: [], next_cursor: cursor });
    await exited;
    expect(performance.now() - signalled).toBeLessThan(drainMs + 2_000);
  });

  it("lets a wait sent while it drains wait as any, not answer at once, until the listener closes", async () => {
    const drainMs = 3_000;
    const { child, client } = await startInstance({ SHUTDOWN_DRAIN_MS: String(drainMs) });
    const cursor = await endOfFeed(client);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A reader the load balancer sent back here: answered at once, it would ask again and again.
    const sent = performance.now();
    const short = await client.get<FeedPage>(`/events?after=${cursor}&wait_seconds=1`);
    expect(short.body).toEqual({ items: [], next_cursor: cursor });
    expect(performance.now() - sent).toBeGreaterThan(900);
    // One that would wait past the drain is answered when the listener closes.
    const long = await client.get<FeedPage>(`/events?after=${cursor}&wait_seconds=30`);
    expect(long.body).toEqual({ items: [], next_cursor: cursor });
    await exited;
    expect(performance.now() - sent).toBeLessThan(drainMs + 2_000);
  });
});

describe("hold.expired", () => {
  /** A wallet and a shop, and holds of 1 USD between them that expire in `seconds`. */
  async function holdsOf(client: LedgerClient, seconds: number, bounded = false) {
    const wallet = await client.post("/accounts", {
      name: "wallet",
      type: "liability",
      currency: "USD",
      ...(bounded ? { max_balance: 1_000 } : {}),
    });
    const shop = await client.account("USD", "income");
    return async () => {
      const hold = await client.post("/transactions", {
        idempotency_key: key(),
        entries: [
          { account_id: wallet.body.id, amount: 1 },
          { account_id: shop, amount: -1 },
        ],
        hold: { expires_in_seconds: seconds },
      });
      expect(hold.status, hold.text).toBe(201);
      return {
        id: hold.body.id as string,
        expiresAt: hold.body.expires_at as string,
        wallet: wallet.body.id,
      };
    };
  }

  /** Every event of the feed after `start` (a full read, once the feed has caught up). */
  async function eventsAfter(start: string): Promise<FeedEvent[]> {
    const events: FeedEvent[] = [];
    for (let cursor = start; ;) {
      const page = await feed(clients[0]!, `after=${cursor}&limit=1000`);
      events.push(...page.items);
      if (page.items.length < 1000) return events;
      cursor = page.next_cursor;
    }
  }

  /** The types of the events of the holds, by hold, as the database has them now. */
  async function eventTypesOf(holds: string[]): Promise<Record<string, string[]>> {
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    try {
      const { rows } = await sql.query<{ id: string; types: string[] }>(
        `SELECT resource_id::text AS id, array_agg(type ORDER BY seq) AS types FROM ledger.events
          WHERE resource_id = ANY($1::uuid[]) GROUP BY resource_id`,
        [holds],
      );
      return Object.fromEntries(rows.map((row) => [row.id, row.types]));
    } finally {
      await sql.end();
    }
  }

  it("tells of each hold left open once, after its expiry, with two instances sweeping; a posted or voided hold has none", async () => {
    const start = await endOfFeed(clients[0]!);
    const newHold = await holdsOf(clients[0]!, 1);
    const open = await Promise.all(Array.from({ length: 10 }, newHold));
    const [voided, posted] = [await newHold(), await newHold()];
    expect(
      (await clients[1]!.post(`/transactions/${voided.id}/void`, { idempotency_key: key() })).status,
    ).toBe(200);
    const capture = await clients[1]!.post(`/transactions/${posted.id}/post`, { idempotency_key: key() });
    expect(capture.status, capture.text).toBe(201);

    const expiredSeen = new Set<string>();
    for (
      let cursor = start, deadline = Date.now() + 15_000;
      expiredSeen.size < 10 && Date.now() < deadline;
    ) {
      const page = await feed(clients[1]!, `after=${cursor}&wait_seconds=2`);
      for (const event of page.items) if (event.type === "hold.expired") expiredSeen.add(event.data!.id);
      cursor = page.next_cursor;
    }
    expect([...expiredSeen].sort()).toEqual(open.map((hold) => hold.id).sort());
    // Two more sweeps of each instance write nothing more.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const expired = (await eventsAfter(start)).filter((event) => event.type === "hold.expired");
    expect(expired).toHaveLength(10);
    for (const event of expired) {
      const hold = open.find((candidate) => candidate.id === event.data!.id)!;
      expect(event.data).toMatchObject({ id: hold.id, status: "expired" });
      expect(event.created_at).toBe(hold.expiresAt);
    }
    expect(await eventTypesOf([voided.id, posted.id])).toEqual({
      [voided.id]: ["hold.created", "hold.voided"],
      [posted.id]: ["hold.created"],
    });
  });

  it.each(["void", "post"])(
    "refuses a %s begun before the expiry that would land after the sweep's hold.expired (409 HOLD_EXPIRED)",
    async (action) => {
      const newHold = await holdsOf(clients[0]!, 1, true);
      const hold = await newHold();
      // A void or post locks the hold's bounded wallet first: held here, it waits there, begun before the expiry.
      const locker = new pg.Client({ connectionString: database.url });
      await locker.connect();
      try {
        await locker.query("BEGIN");
        await locker.query("SELECT 1 FROM ledger.accounts WHERE id = $1 FOR UPDATE", [hold.wallet]);
        const resolving = clients[1]!.post(`/transactions/${hold.id}/${action}`, { idempotency_key: key() });
        await expect
          .poll(() => eventTypesOf([hold.id]), { timeout: 4_000, interval: 50 })
          .toEqual({
            [hold.id]: ["hold.created", "hold.expired"],
          });
        await locker.query("COMMIT");
        const refused = await resolving;
        expect(refused.status, refused.text).toBe(409);
        expect(refused.body).toMatchObject({ error: "HOLD_EXPIRED" });
      } finally {
        await locker.end();
      }
      expect(await eventTypesOf([hold.id])).toEqual({ [hold.id]: ["hold.created", "hold.expired"] });
      expect((await clients[0]!.get(`/transactions/${hold.id}`)).body).toMatchObject({ status: "expired" });
    },
  );

  /**
   * A hold of `client` placed on a bounded wallet whose row is locked meanwhile: placing it locks
   * the wallet first, so it waits there, its expiry counting from its start, while the sweeps
   * (every 200 ms) pass that expiry without seeing it. It commits already expired.
   */
  async function holdCommittedExpired(client: LedgerClient) {
    const newHold = await holdsOf(client, 1, true);
    const { wallet } = await newHold();
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    let posting: ReturnType<typeof newHold>;
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT 1 FROM ledger.accounts WHERE id = $1 FOR UPDATE", [wallet]);
      posting = newHold();
      // Within the post's lock timeout (2.5 s), past its expiry and several sweeps.
      await new Promise((resolve) => setTimeout(resolve, 1_800));
      await locker.query("COMMIT");
    } finally {
      await locker.end();
    }
    const hold = await posting;
    expect(Date.parse(hold.expiresAt)).toBeLessThan(Date.now());
    return hold;
  }

  it("tells of a hold whose post, begun before its expiry, commits after it and after the sweeps of that time", async () => {
    const hold = await holdCommittedExpired(clients[0]!);
    await expect
      .poll(() => eventTypesOf([hold.id]), { timeout: 3_000, interval: 100 })
      .toEqual({ [hold.id]: ["hold.created", "hold.expired"] });
  });

  it("tells of a hold committed after its expiry by an instance whose connections are named otherwise", async () => {
    // Its DATABASE_URL names its connections (application_name), and it does not sweep in time itself.
    const named = new URL(serviceUrl);
    named.searchParams.set("application_name", "ledger-elsewhere");
    const elsewhere = await startInstance({
      DATABASE_URL: named.toString(),
      LEDGER_EXPIRED_HOLDS_SWEEP_MS: "60000",
    });
    const hold = await holdCommittedExpired(elsewhere.client);
    await expect
      .poll(() => eventTypesOf([hold.id]), { timeout: 3_000, interval: 100 })
      .toEqual({ [hold.id]: ["hold.created", "hold.expired"] });
    await stopProcess(elsewhere.child);
  });

  it("is not held back by a transaction left open by another program (a psql session, a dump)", async () => {
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query("BEGIN");
      const [{ started }] = (await other.query<{ started: Date }>("SELECT now() AS started")).rows as [
        { started: Date },
      ];
      // swept_to moves on past it: only holds made by a transaction the last sweep could not see are looked at again.
      await expect
        .poll(
          async () =>
            (
              await other.query<{ ahead: boolean }>(
                "SELECT swept_to > $1::timestamptz + interval '1 second' AS ahead FROM ledger.hold_expiry_sweeps",
                [started],
              )
            ).rows[0]!.ahead,
          { timeout: 4_000, interval: 200 },
        )
        .toBe(true);
    } finally {
      await other.end();
    }
  });

  it("writes no hold.expired for a hold whose void, begun before the expiry, commits while the sweep waits for it", async () => {
    const newHold = await holdsOf(clients[0]!, 1);
    const hold = await newHold();
    const voider = new pg.Client({ connectionString: database.url });
    await voider.connect();
    try {
      await voider.query("BEGIN");
      await voider.query(
        `INSERT INTO ledger.hold_resolutions (hold_id, transaction_id, principal, idempotency_key, request_hash)
         VALUES ($1::uuid, NULL, 'raw', $2, repeat('0', 64))`,
        [hold.id, key()],
      );
      // Past the expiry and a sweep of each instance, which wait for this transaction's hold.voided.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      await voider.query("COMMIT");
    } finally {
      await voider.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await eventTypesOf([hold.id])).toEqual({ [hold.id]: ["hold.created", "hold.voided"] });
  });
});

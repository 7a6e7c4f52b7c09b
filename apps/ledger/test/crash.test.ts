import type { ChildProcess } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, type Database } from "@app/db";
import { verifyLedger } from "@app/ledger";
import { env } from "../../../scripts/env.ts";
import { startLedger, waitForHealthy } from "../../../scripts/processes.ts";
import { freePort } from "../../../test/free-port.ts";
import { ledgerClient, type LedgerResult } from "../../../test/ledger-client.ts";
import { FULL_KEY } from "../../../test/ledger-server.ts";

/** The production ledger process, killed with SIGKILL in the middle of a stream of posts. */
let credentialsFile: string;
let port: number;
let db: Database;

beforeAll(async () => {
  credentialsFile = path.join(await mkdtemp(path.join(tmpdir(), "ledger-crash-")), "credentials.json");
  await writeFile(credentialsFile, JSON.stringify([FULL_KEY]));
  port = await freePort();
  db = createDatabase({ connectionString: inject("databaseUrl") });
});

afterAll(async () => {
  await db.$disconnect();
});

async function startProcess(): Promise<ChildProcess> {
  const child = startLedger(
    {
      DATABASE_URL: inject("databaseUrl"),
      DATA_DIR: env.DATA_DIR,
      HOST: "127.0.0.1",
      PORT: 0,
      LEDGER_PORT: port,
      SHUTDOWN_DRAIN_MS: 0,
    },
    "quiet",
    { LEDGER_CREDENTIALS_FILE: credentialsFile },
  );
  await waitForHealthy(`http://127.0.0.1:${port}/healthz`, 30_000);
  return child;
}

/** kill -9, and wait until the process is gone. */
async function killNow(ledger: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => ledger.once("exit", resolve));
  ledger.kill("SIGKILL");
  await exited;
}

/** How many of `keys` have a transaction, and how many entries those have. */
async function storedOf(keys: string[]): Promise<{ transactions: number; entries: number }> {
  const [row] = await db.$queryRawUnsafe<{ transactions: number; entries: number }[]>(
    `SELECT count(DISTINCT t.id)::int AS transactions, count(e.id)::int AS entries
       FROM ledger.transactions t LEFT JOIN ledger.entries e ON e.transaction_id = t.id
      WHERE t.idempotency_key = ANY($1::text[])`,
    keys,
  );
  return row!;
}

describe("kill -9 during a stream of posts", () => {
  it("loses no acknowledged transaction, leaves none partial, and replays every key afterwards", async () => {
    let ledger = await startProcess();
    const client = ledgerClient(`http://127.0.0.1:${port}`);
    const cash = await client.account("USD", "asset");
    const sales = await client.account("USD", "income");
    const body = (key: string, i: number) => ({
      idempotency_key: key,
      entries: [
        { account_id: cash, amount: 100 + i },
        { account_id: sales, amount: -(100 + i) },
      ],
    });

    const acknowledged = new Map<string, LedgerResult>();
    const attempted: string[] = [];
    let killed = false;
    const stream = Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let i = 0; !killed; i += 1) {
          const key = `crash-${worker}-${i}-${crypto.randomUUID()}`;
          attempted.push(key);
          const result = await client.post("/transactions", body(key, i)).catch(() => null);
          if (result?.status === 201) acknowledged.set(key, result);
        }
      }),
    );
    while (acknowledged.size < 30) await new Promise((resolve) => setTimeout(resolve, 20));
    await killNow(ledger);
    killed = true;
    await stream;

    ledger = await startProcess();
    try {
      for (const [key, first] of acknowledged) {
        const stored = await client.get(`/transactions/${first.body.id}`);
        expect(stored.text, key).toBe(first.text);
        const retried = await client.post("/transactions", body(key, 0));
        expect(retried.status, key).toBe(200);
        expect(retried.text, key).toBe(first.text);
      }
      // Keys in flight at the kill either committed whole or not at all: retrying answers either way.
      for (const key of attempted.filter((k) => !acknowledged.has(k))) {
        const retried = await client.post("/transactions", body(key, 0));
        expect([200, 201], key).toContain(retried.status);
        expect((retried.body.entries as unknown[]).length).toBe(2);
      }
      expect(await verifyLedger(db)).toEqual([]);
    } finally {
      ledger.kill("SIGTERM");
    }
  });
});

describe("kill -9 during a stream of batches", () => {
  it("keeps every acknowledged item, leaves each unanswered batch whole or absent, and a re-send completes it once", async () => {
    let ledger = await startProcess();
    const client = ledgerClient(`http://127.0.0.1:${port}`);
    const cash = await client.account("USD", "asset");
    const sales = await client.account("USD", "income");
    const batchOf = (keys: string[]) => ({
      transactions: keys.map((key, i) => ({
        idempotency_key: key,
        entries: [
          { account_id: cash, amount: 100 + i },
          { account_id: sales, amount: -(100 + i) },
        ],
      })),
    });

    const acknowledged: { keys: string[]; results: { transaction: { id: string } }[] }[] = [];
    const unanswered: string[][] = [];
    let killed = false;
    const stream = Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        for (let i = 0; !killed; i += 1) {
          const keys = Array.from(
            { length: 25 },
            (_, j) => `crash-batch-${worker}-${i}-${j}-${crypto.randomUUID()}`,
          );
          const result = await client.post("/transactions/batch", batchOf(keys)).catch(() => null);
          if (result?.status === 200) acknowledged.push({ keys, results: result.body.results as never });
          else unanswered.push(keys);
        }
      }),
    );
    while (acknowledged.length < 8) await new Promise((resolve) => setTimeout(resolve, 20));
    await killNow(ledger);
    killed = true;
    await stream;

    ledger = await startProcess();
    try {
      for (const { keys, results } of acknowledged) {
        expect(await storedOf(keys)).toEqual({ transactions: 25, entries: 50 });
        const again = await client.post("/transactions/batch", batchOf(keys));
        const replayed = again.body.results as { status: number; transaction: { id: string } }[];
        expect(replayed.map((r) => r.status)).toEqual(keys.map(() => 200));
        expect(replayed.map((r) => r.transaction.id)).toEqual(results.map((r) => r.transaction.id));
      }
      expect(unanswered.length).toBeGreaterThan(0);
      for (const keys of unanswered) {
        const before = await storedOf(keys);
        expect([0, 25]).toContain(before.transactions);
        expect(before.entries).toBe(before.transactions * 2);
        const resent = await client.post("/transactions/batch", batchOf(keys));
        expect(resent.status).toBe(200);
        expect(await storedOf(keys)).toEqual({ transactions: 25, entries: 50 });
      }
      expect(await verifyLedger(db)).toEqual([]);
    } finally {
      ledger.kill("SIGTERM");
    }
  });
});

describe("kill -9 during a stream of holds and captures on a bounded account", () => {
  it("loses no acknowledged hold or capture, breaks no bound, and replays every key afterwards", async () => {
    let ledger = await startProcess();
    const client = ledgerClient(`http://127.0.0.1:${port}`);
    const wallet = (
      await client.post("/accounts", { name: "wallet", type: "liability", currency: "USD", max_balance: 0 })
    ).body.id as string;
    const shop = await client.account("USD", "income");
    const cash = await client.account("USD", "asset");
    const funded = await client.post("/transactions", {
      idempotency_key: `fund-${crypto.randomUUID()}`,
      entries: [
        { account_id: cash, amount: 300 },
        { account_id: wallet, amount: -300 },
      ],
    });
    expect(funded.status).toBe(201);
    const holdOf = (key: string) => ({
      idempotency_key: key,
      hold: { expires_in_seconds: 3600 },
      entries: [
        { account_id: wallet, amount: 10 },
        { account_id: shop, amount: -10 },
      ],
    });
    const captureOf = (key: string) => ({
      idempotency_key: key,
      entries: [
        { account_id: wallet, amount: 7 },
        { account_id: shop, amount: -7 },
      ],
    });

    const holds = new Map<string, LedgerResult>();
    const captures = new Map<string, { hold: string; answer: LedgerResult | null }>();
    let killed = false;
    const stream = Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let i = 0; !killed; i += 1) {
          const holdKey = `crash-hold-${worker}-${i}-${crypto.randomUUID()}`;
          const held = await client.post("/transactions", holdOf(holdKey)).catch(() => null);
          if (held?.status !== 201) continue;
          holds.set(holdKey, held);
          const captureKey = `crash-capture-${worker}-${i}-${crypto.randomUUID()}`;
          const hold = held.body.id as string;
          captures.set(captureKey, { hold, answer: null });
          const captured = await client
            .post(`/transactions/${hold}/post`, captureOf(captureKey))
            .catch(() => null);
          if (captured?.status === 201) captures.set(captureKey, { hold, answer: captured });
        }
      }),
    );
    while ([...captures.values()].filter((c) => c.answer).length < 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await killNow(ledger);
    killed = true;
    await stream;

    ledger = await startProcess();
    try {
      for (const [key, first] of holds) {
        const stored = (await client.get(`/transactions/${first.body.id}`)).body;
        expect({ ...stored, status: null }, key).toEqual({ ...first.body, status: null });
        const retried = await client.post("/transactions", holdOf(key));
        expect(retried.status, key).toBe(200);
      }
      for (const [key, { hold, answer }] of captures) {
        const retried = await client.post(`/transactions/${hold}/post`, captureOf(key));
        if (answer) {
          expect(retried.status, key).toBe(200);
          expect(retried.text, key).toBe(answer.text);
        } else {
          // In flight at the kill: committed whole (a replay) or not at all (posted now).
          expect([200, 201], `${key}: ${retried.text}`).toContain(retried.status);
        }
        expect((await client.get(`/transactions/${hold}`)).body.status).toBe("posted");
      }
      const balance = (await client.get(`/accounts/${wallet}/balance`)).body as {
        balance: number;
        pending_debits: number;
      };
      expect(balance.balance + balance.pending_debits).toBeLessThanOrEqual(0);
      expect(await verifyLedger(db)).toEqual([]);
    } finally {
      ledger.kill("SIGTERM");
    }
  });
});

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
    const exited = new Promise((resolve) => ledger.once("exit", resolve));
    ledger.kill("SIGKILL");
    await exited;
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
    const exited = new Promise((resolve) => ledger.once("exit", resolve));
    ledger.kill("SIGKILL");
    await exited;
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

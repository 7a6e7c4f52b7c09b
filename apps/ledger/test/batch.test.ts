/**
 * POST /transactions/batch: each item with the rules and answers of POST
 * /transactions, in order; atomic batches all or nothing. What is written is
 * checked with SQL, not only through the API.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, type Database } from "@app/db";
import { verifyLedger } from "@app/ledger";
import { ledgerClient, type LedgerClient } from "../../../test/ledger-client.ts";
import { READ_ONLY_KEY, startLedgerServer, type LedgerServer } from "../../../test/ledger-server.ts";

let ledger: LedgerServer;
let client: LedgerClient;
let sql: pg.Client;
let db: Database;
let cash: string;
let sales: string;
let euros: string;

beforeAll(async () => {
  ledger = await startLedgerServer();
  client = ledgerClient(ledger.url);
  sql = new pg.Client({ connectionString: inject("databaseUrl") });
  await sql.connect();
  db = createDatabase({ connectionString: inject("databaseUrl") });
  cash = await client.account("USD", "asset");
  sales = await client.account("USD", "income");
  euros = await client.account("EUR", "asset");
});

afterAll(async () => {
  await sql?.end();
  await db?.$disconnect();
  await ledger?.stop();
});

const newKey = (label = "batch") => `${label}-${crypto.randomUUID()}`;

/** A balanced two-entry post (or one from `to` when it names another account). */
const item = (key: string, amount = 100, to = sales) => ({
  idempotency_key: key,
  entries: [
    { account_id: cash, amount },
    { account_id: to, amount: -amount },
  ],
});

interface Result {
  status: number;
  transaction?: { id: string; idempotency_key: string; entries: { amount: number }[] };
  idempotency_key_mismatch?: true;
  error?: { error: string; message: string; issues?: { path: string; message: string }[] };
}

const postBatch = (transactions: unknown[], atomic?: boolean) =>
  client.post<{ results: Result[]; error?: string; statusCode?: number }>("/transactions/batch", {
    transactions,
    ...(atomic === undefined ? {} : { atomic }),
  });

/** Transactions written per key, and how many database transactions wrote them (xmin). */
async function stored(keys: string[]) {
  const { rows } = await sql.query<{ idempotency_key: string; entries: number; xmin: string }>(
    `SELECT t.idempotency_key, count(e.id)::int AS entries, t.xmin::text
       FROM ledger.transactions t LEFT JOIN ledger.entries e ON e.transaction_id = t.id
      WHERE t.idempotency_key = ANY($1) GROUP BY t.id`,
    [keys],
  );
  return {
    keys: rows.map((r) => r.idempotency_key).sort(),
    entries: rows.reduce((sum, r) => sum + r.entries, 0),
    commits: new Set(rows.map((r) => r.xmin)).size,
  };
}

describe("POST /transactions/batch, not atomic", () => {
  it("answers every item as POST /transactions would, in order, and writes exactly the good ones", async () => {
    const known = newKey("known");
    const first = await client.post("/transactions", item(known, 5));
    expect(first.status).toBe(201);
    const [good, repeated, unknownAccount, unbalanced, tried] = [
      "good",
      "repeat",
      "unknown",
      "unbal",
      "tried",
    ].map(newKey) as [string, string, string, string, string];

    const answer = await postBatch([
      item(good, 10),
      item(known, 5),
      { idempotency_key: newKey("shape"), entries: [{ account_id: cash, amount: "ten" }], extra: 1 },
      item(unknownAccount, 10, crypto.randomUUID()),
      item(unbalanced, 10, euros),
      item(repeated, 20),
      item(repeated, 20),
      item(repeated, 21),
      item(tried, 30, crypto.randomUUID()),
      item(tried, 31),
    ]);

    expect(answer.status).toBe(200);
    const results = answer.body.results;
    expect(results.map((r) => r.status)).toEqual([201, 200, 400, 422, 422, 201, 200, 200, 422, 201]);
    expect(results[0]!.transaction).toMatchObject({ idempotency_key: good });
    expect(JSON.stringify(results[1]!.transaction)).toBe(first.text);
    expect(results[1]!.idempotency_key_mismatch).toBeUndefined();
    expect(results[2]!.error).toMatchObject({ error: "BAD_REQUEST" });
    expect(results[2]!.error!.issues!.map((i) => i.path).sort()).toEqual([
      "entries",
      "entries.0.amount",
      "extra",
    ]);
    expect(results[3]!.error).toMatchObject({ error: "UNKNOWN_ACCOUNT" });
    expect(results[4]!.error).toMatchObject({ error: "UNBALANCED_TRANSACTION" });
    // A key repeated in the batch: one transaction, the later items its replays.
    expect(results[6]!.transaction).toEqual(results[5]!.transaction);
    expect(results[6]!.idempotency_key_mismatch).toBeUndefined();
    expect(results[7]!.transaction).toEqual(results[5]!.transaction);
    expect(results[7]!.idempotency_key_mismatch).toBe(true);
    // As in one-by-one posting: a refused first try leaves its key unused for the next.
    expect(results[9]!.transaction!.entries.map((e) => e.amount)).toEqual([31, -31]);

    expect(await stored([good, repeated, unknownAccount, unbalanced, tried])).toMatchObject({
      keys: [good, repeated, tried].sort(),
      entries: 6,
    });
    expect(ledger.warnings.some((w) => w.includes(repeated))).toBe(true);
  });

  it("writes a batch's new transactions in one database transaction", async () => {
    const keys = Array.from({ length: 50 }, () => newKey("one-commit"));
    const answer = await postBatch(keys.map((key, i) => item(key, i + 1)));
    expect(answer.body.results.every((r) => r.status === 201)).toBe(true);
    expect(await stored(keys)).toEqual({ keys: [...keys].sort(), entries: 100, commits: 1 });
  });

  it("answers a batch sent again with every original, byte for byte", async () => {
    const batch = Array.from({ length: 20 }, (_, i) => item(newKey("again"), i + 1));
    const first = await postBatch(batch);
    const again = await postBatch(batch);
    expect(again.body.results.map((r) => r.status)).toEqual(batch.map(() => 200));
    expect(JSON.stringify(again.body.results.map((r) => r.transaction))).toBe(
      JSON.stringify(first.body.results.map((r) => r.transaction)),
    );
  });

  it("takes 1,000 transactions in a body past the 64 KiB of a single post", async () => {
    const keys = Array.from({ length: 1000 }, () => newKey("thousand"));
    const body = keys.map((key, i) => ({ ...item(key, i + 1), description: "x".repeat(100) }));
    expect(JSON.stringify({ transactions: body }).length).toBeGreaterThan(64 * 1024);
    const answer = await postBatch(body);
    expect(answer.status).toBe(200);
    expect(answer.body.results.filter((r) => r.status === 201)).toHaveLength(1000);
    expect((await stored(keys)).entries).toBe(2000);
  });
});

describe("POST /transactions/batch, atomic", () => {
  it("writes every new transaction in one database transaction", async () => {
    const known = newKey("atomic-known");
    await client.post("/transactions", item(known, 3));
    const keys = Array.from({ length: 10 }, () => newKey("atomic"));
    const answer = await postBatch([...keys.map((key, i) => item(key, i + 1)), item(known, 3)], true);
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((r) => r.status)).toEqual([...keys.map(() => 201), 200]);
    expect(await stored(keys)).toEqual({ keys: [...keys].sort(), entries: 20, commits: 1 });
  });

  it.each([
    ["an unknown account", () => item(newKey("bad"), 5, crypto.randomUUID()), 422, "UNKNOWN_ACCOUNT"],
    ["entries that do not balance", () => item(newKey("bad"), 5, euros), 422, "UNBALANCED_TRANSACTION"],
    ["an invalid item", () => ({ idempotency_key: newKey("bad"), entries: [] }), 400, "BAD_REQUEST"],
  ])(
    "writes nothing when one item has %s: 422 BATCH_REJECTED with every item's result",
    async (_, bad, status, error) => {
      const keys = Array.from({ length: 5 }, () => newKey("rejected"));
      const answer = await postBatch(
        [...keys.slice(0, 2).map((k) => item(k)), bad(), ...keys.slice(2).map((k) => item(k))],
        true,
      );
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ statusCode: 422, error: "BATCH_REJECTED" });
      const results = answer.body.results;
      expect(results.map((r) => r.status)).toEqual([422, 422, status, 422, 422, 422]);
      expect(results[2]!.error!.error).toBe(error);
      for (const i of [0, 1, 3, 4, 5]) expect(results[i]!.error!.error).toBe("BATCH_REJECTED");
      expect(await stored(keys)).toMatchObject({ keys: [], entries: 0 });
      // The keys stay unused.
      expect((await client.post("/transactions", item(keys[0]!))).status).toBe(201);
    },
  );
});

describe("POST /transactions/batch, refused as a whole", () => {
  it.each([
    ["no transactions", { transactions: [] }, "transactions"],
    ["more than 1,000", { transactions: Array.from({ length: 1001 }, () => item("k")) }, "transactions"],
    ["transactions not a list", { transactions: {} }, "transactions"],
    ["atomic not a boolean", { transactions: [item("k")], atomic: "yes" }, "atomic"],
    ["an unknown member", { transactions: [item("k")], force: true }, "force"],
  ])("400 for %s", async (_, body, path) => {
    const answer = await client.post("/transactions/batch", body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, error: "BAD_REQUEST" });
    expect((answer.body.issues as { path: string }[]).map((i) => i.path)).toContain(path);
  });

  it("413 past 4 MiB", async () => {
    const answer = await client.post("/transactions/batch", {
      transactions: [{ ...item(newKey()), description: "x".repeat(4 * 1024 * 1024) }],
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ statusCode: 413, error: "PAYLOAD_TOO_LARGE" });
  });

  it("403 AccessDenied for a key without ledger:PostTransaction", async () => {
    const answer = await ledgerClient(ledger.url, READ_ONLY_KEY).post("/transactions/batch", {
      transactions: [item(newKey())],
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error: "AccessDenied" });
  });

  it("405 for GET, naming POST", async () => {
    const answer = await client.get("/transactions/batch");
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
  });
});

describe("POST /transactions/batch under concurrency", () => {
  it("makes one transaction of a key sent in two batches and a single post at once", async () => {
    for (let round = 0; round < 5; round += 1) {
      const key = newKey("race");
      const fillers = () => Array.from({ length: 30 }, () => item(newKey("filler")));
      const [a, b, single] = await Promise.all([
        postBatch([...fillers(), item(key, 9)]),
        postBatch([item(key, 9), ...fillers()], true),
        client.post("/transactions", item(key, 9)),
      ]);
      const answers = [
        a.body.results.at(-1)!,
        b.body.results[0]!,
        { status: single.status, transaction: single.body },
      ];
      expect(
        answers.filter((r) => r.status === 201),
        key,
      ).toHaveLength(1);
      expect(
        answers.filter((r) => r.status === 200),
        key,
      ).toHaveLength(2);
      expect(new Set(answers.map((r) => (r.transaction as { id: string }).id)).size).toBe(1);
      expect(await stored([key])).toMatchObject({ keys: [key], entries: 2 });
    }
    expect(await verifyLedger(db)).toEqual([]);
  });
});

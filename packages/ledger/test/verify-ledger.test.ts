import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, migrateDatabase, findRepoRoot, migrationsDirectory, type Database } from "@app/db";
import { verifyLedger } from "../src/index.ts";
import { createScratchDatabase, type ScratchDatabase } from "../../../test/scratch-database.ts";

/** A database of its own: the test breaks the ledger on purpose, with the triggers switched off. */
let scratch: ScratchDatabase;
let db: Database;
let sql: pg.Client;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  await migrateDatabase(scratch.url, migrationsDirectory(findRepoRoot()));
  db = createDatabase({ connectionString: scratch.url });
  sql = new pg.Client({ connectionString: scratch.url });
  await sql.connect();
});

afterAll(async () => {
  await sql.end();
  await db.$disconnect();
  await scratch.drop();
});

describe("verifyLedger", () => {
  it("finds nothing in a ledger written through the rules, and each kind of damage when the rules were bypassed", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await sql.query(
      "INSERT INTO ledger.accounts (id, name, type, currency) VALUES ($1, 'a', 'asset', 'USD'), ($2, 'b', 'income', 'USD')",
      [a, b],
    );
    const good = randomUUID();
    await sql.query("BEGIN");
    await sql.query(
      "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date) VALUES ($1, 'verify-test', 'good', repeat('0', 64), '2026-01-01')",
      [good],
    );
    await sql.query(
      `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
       VALUES (gen_random_uuid(), $1, $2, 'USD', 10, '2026-01-01', 0), (gen_random_uuid(), $1, $3, 'USD', -10, '2026-01-01', 1)`,
      [good, a, b],
    );
    await sql.query("COMMIT");
    expect(await verifyLedger(db)).toEqual([]);

    const lonely = randomUUID();
    await sql.query("BEGIN");
    await sql.query("SET LOCAL session_replication_role = replica"); // triggers and foreign keys off
    await sql.query(
      "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date) VALUES ($1, 'verify-test', 'bad', repeat('0', 64), '2026-01-01')",
      [lonely],
    );
    await sql.query(
      `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
       VALUES (gen_random_uuid(), $1, $2, 'USD', 5, '2026-01-01', 0)`,
      [lonely, a],
    );
    const orphan = randomUUID();
    await sql.query(
      `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
       VALUES ($1, gen_random_uuid(), $2, 'USD', 7, '2026-01-01', 0)`,
      [orphan, a],
    );
    await sql.query("COMMIT");

    const found = await verifyLedger(db);
    expect(found).toEqual(
      expect.arrayContaining([
        { rule: "transaction-unbalanced", subject: lonely, detail: "USD sums to 5" },
        { rule: "currency-unbalanced", subject: "USD", detail: "all entries sum to 12" },
        {
          rule: "entry-without-transaction",
          subject: orphan,
          detail: expect.stringMatching(/^names transaction /),
        },
        { rule: "transaction-too-few-entries", subject: lonely, detail: "1 entries" },
      ]),
    );
    expect(found.some((v) => v.subject === good)).toBe(false);
  });

  it("takes a hold's hold entries for its entries, and finds a broken hold", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await sql.query(
      "INSERT INTO ledger.accounts (id, name, type, currency) VALUES ($1, 'a', 'asset', 'EUR'), ($2, 'b', 'income', 'EUR')",
      [a, b],
    );
    const insertHold = async (id: string, amounts: number[]) => {
      await sql.query(
        "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date, hold_expires_at) VALUES ($1, 'verify-test', $2, repeat('0', 64), '2026-01-01', now() + interval '1 hour')",
        [id, `hold-${id}`],
      );
      for (const [position, amount] of amounts.entries()) {
        await sql.query(
          `INSERT INTO ledger.hold_entries (id, hold_id, account_id, currency, amount, expires_at, position)
           SELECT gen_random_uuid(), t.id, $2, 'EUR', $3, t.hold_expires_at, $4 FROM ledger.transactions t WHERE t.id = $1`,
          [id, position === 0 ? a : b, amount, position],
        );
      }
    };
    const held = randomUUID();
    await sql.query("BEGIN");
    await insertHold(held, [30, -30]);
    await sql.query("COMMIT");
    expect((await verifyLedger(db)).filter((v) => v.subject === held)).toEqual([]);

    const broken = randomUUID();
    await sql.query("BEGIN");
    await sql.query("SET LOCAL session_replication_role = replica");
    await insertHold(broken, [9]);
    await sql.query("COMMIT");
    expect((await verifyLedger(db)).filter((v) => v.subject === broken)).toEqual([
      { rule: "transaction-unbalanced", subject: broken, detail: "EUR sums to 9" },
      { rule: "transaction-too-few-entries", subject: broken, detail: "1 entries" },
    ]);
  });

  it("finds a bounded account whose latest partial sum is not the sum of its entries", async () => {
    const [wallet, cash] = [randomUUID(), randomUUID()];
    await sql.query(
      "INSERT INTO ledger.accounts (id, name, type, currency, max_balance) VALUES ($1, 'w', 'liability', 'GBP', 0), ($2, 'c', 'asset', 'GBP', NULL)",
      [wallet, cash],
    );
    const funding = randomUUID();
    await sql.query("BEGIN");
    await sql.query(
      "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date) VALUES ($1, 'verify-test', $2, repeat('0', 64), '2026-01-01')",
      [funding, `fund-${funding}`],
    );
    await sql.query(
      `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
       VALUES (gen_random_uuid(), $1, $2, 'GBP', 40, '2026-01-01', 0), (gen_random_uuid(), $1, $3, 'GBP', -40, '2026-01-01', 1)`,
      [funding, cash, wallet],
    );
    await sql.query("COMMIT");
    expect((await verifyLedger(db)).filter((v) => v.subject === wallet)).toEqual([]);

    await sql.query("BEGIN");
    await sql.query("SET LOCAL session_replication_role = replica");
    await sql.query(
      "INSERT INTO ledger.account_totals (account_id, version, total, as_of) VALUES ($1, 99, -1000, now())",
      [wallet],
    );
    await sql.query("COMMIT");
    expect((await verifyLedger(db)).filter((v) => v.subject === wallet)).toEqual([
      {
        rule: "account-total-differs",
        subject: wallet,
        detail: "kept -1000 (held 0 / 0), entries and open holds -40 (held 0 / 0)",
      },
    ]);
  });

  it("finds nothing while posts to bounded accounts commit during its checks", async () => {
    // Many bounded wallets, so that one check reads partial sums for a while, and a writer that keeps
    // spending from them meanwhile, through the triggers, as the ledger posts.
    const cash = randomUUID();
    const wallets = Array.from({ length: 300 }, () => randomUUID());
    await sql.query(
      "INSERT INTO ledger.accounts (id, name, type, currency) VALUES ($1, 'c', 'asset', 'JPY')",
      [cash],
    );
    await sql.query(
      `INSERT INTO ledger.accounts (id, name, type, currency, max_balance)
       SELECT id, 'w', 'liability', 'JPY', 0 FROM unnest($1::uuid[]) id`,
      [wallets],
    );
    const writer = new pg.Client({ connectionString: scratch.url });
    await writer.connect();
    try {
      await spendWhileVerifying(writer, cash, wallets);
    } finally {
      await writer.end();
    }
  });
});

/**
 * Funds each wallet, then verifies the ledger again and again (at least 20
 * times, until 200 spends committed) while `writer` spends from the wallets,
 * one after another, in transactions of its own.
 */
async function spendWhileVerifying(writer: pg.Client, cash: string, wallets: string[]) {
  const move = async (wallet: string, amount: number) => {
    const id = randomUUID();
    await writer.query("BEGIN");
    await writer.query(
      "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date) VALUES ($1::uuid, 'verify-test', $1::text, repeat('0', 64), '2026-01-01')",
      [id],
    );
    await writer.query(
      `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
         VALUES (gen_random_uuid(), $1, $2, 'JPY', $4, '2026-01-01', 0), (gen_random_uuid(), $1, $3, 'JPY', -$4::bigint, '2026-01-01', 1)`,
      [id, cash, wallet, amount],
    );
    await writer.query("COMMIT");
  };
  for (const wallet of wallets) await move(wallet, 1_000);

  let writing = true;
  let posts = 0;
  const spending = (async () => {
    for (let i = 0; writing; i += 1, posts += 1) await move(wallets[i % wallets.length]!, -1);
  })();
  // The earlier tests' damage stays in this database: only the wallets' findings count.
  const ours = new Set(wallets);
  const found = [];
  try {
    // At least 20 checks, and as many more as it takes for 200 spends to commit among them (a busy
    // machine checked 20 times while only 74 did); past 400 checks something else is wrong.
    for (let round = 0; round < 400 && (round < 20 || posts < 200); round += 1) {
      found.push(...(await verifyLedger(db)).filter((violation) => ours.has(violation.subject)));
    }
  } finally {
    writing = false;
    await spending;
  }
  expect(found).toEqual([]);
  expect(posts).toBeGreaterThanOrEqual(200);
}

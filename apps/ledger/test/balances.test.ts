import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ledgerClient, type LedgerClient } from "../../../test/ledger-client.ts";
import { startLedgerServer, type LedgerServer } from "../../../test/ledger-server.ts";

let ledger: LedgerServer;
let client: LedgerClient;
let sql: pg.Client;

beforeAll(async () => {
  ledger = await startLedgerServer();
  client = ledgerClient(ledger.url);
  sql = new pg.Client({ connectionString: inject("databaseUrl") });
  await sql.connect();
});

afterAll(async () => {
  await sql?.end();
  await ledger?.stop();
});

const post = (date: string, entries: [string, number][]) =>
  client.post("/transactions", {
    idempotency_key: `balance-${crypto.randomUUID()}`,
    effective_date: date,
    entries: entries.map(([account_id, amount]) => ({ account_id, amount })),
  });

const balance = async (account: string, asOf?: string) =>
  (await client.get(`/accounts/${account}/balance${asOf ? `?as_of=${asOf}` : ""}`)).body;

describe("balances", () => {
  it("counts entries with effective_date <= as_of: before, on and after their dates", async () => {
    const cash = await client.account("USD", "asset");
    const sales = await client.account("USD", "income");
    await post("2026-02-10", [
      [cash, 1000],
      [sales, -1000],
    ]);
    await post("2026-02-20", [
      [cash, 250],
      [sales, -250],
    ]);

    expect(await balance(cash, "2026-02-09")).toEqual({
      account_id: cash,
      as_of: "2026-02-09",
      currency: "USD",
      balance: 0,
      balance_exact: "0",
      pending_debits: 0,
      pending_credits: 0,
      room_to_debit: null,
      room_to_credit: null,
    });
    expect((await balance(cash, "2026-02-10")).balance).toBe(1000);
    expect((await balance(cash, "2026-02-19")).balance).toBe(1000);
    expect((await balance(cash, "2026-02-20")).balance).toBe(1250);
    expect((await balance(sales, "2026-12-31")).balance).toBe(-1250);
    const today = new Date().toISOString().slice(0, 10);
    expect(await balance(cash)).toMatchObject({ as_of: today, balance: 1250 });
    // An id sent in upper case names the same account, answered as stored (as every other route does).
    expect((await client.get(`/accounts/${cash.toUpperCase()}/balance`)).body).toMatchObject({
      account_id: cash,
      balance: 1250,
    });
    expect((await client.get(`/accounts/${cash}/balance?as_of=2026-02-30`)).status).toBe(400);
    expect((await client.get(`/accounts/${cash}/balance?as_of=0000-01-01`)).status).toBe(400);
    expect((await client.get("/accounts/6b0c3c4e-4d5e-4f60-8a1b-2c3d4e5f6a7b/balance")).status).toBe(404);
  });

  it("lists every account in creation order, zero balances included, matching each account's balance", async () => {
    const a = await client.account("EUR", "asset");
    const b = await client.account("EUR", "liability");
    const untouched = await client.account("GBP", "expense");
    await post("2026-01-05", [
      [a, 42],
      [b, -42],
    ]);

    // Other test files create accounts meanwhile, so the list read before is within the
    // answer and the answer within the list read after.
    const accountIds = async () => (await client.allAccounts()).map((x) => x.id);
    const before = await accountIds();
    const all = (await client.get("/balances?as_of=2026-06-30")).body as {
      as_of: string;
      accounts: { id: string; balance: number }[];
    };
    expect(all.as_of).toBe("2026-06-30");
    const ids = all.accounts.map((x) => x.id);
    expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b));
    expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(untouched));
    expect(all.accounts.find((x) => x.id === untouched)).toMatchObject({ balance: 0, currency: "GBP" });
    const after = await accountIds();
    expect(ids).toEqual(expect.arrayContaining(before));
    expect(after).toEqual(expect.arrayContaining(ids));
    for (const id of [a, b, untouched]) {
      expect(all.accounts.find((x) => x.id === id)!.balance).toBe((await balance(id, "2026-06-30")).balance);
    }
  });

  it("answers a sum beyond ±(2^53-1) exactly (balance null, balance_exact its digits), and every other account as before", async () => {
    const max = Number.MAX_SAFE_INTEGER;
    const big = await client.account("USD", "asset");
    const owed = await client.account("USD", "liability");
    const ordinary = await client.account("USD", "asset");
    const other = await client.account("USD", "income");
    // Two posts, each legal on its own, take both accounts past the range.
    for (let i = 0; i < 2; i++) {
      expect(
        (
          await post("2026-03-01", [
            [big, max],
            [owed, -max],
          ])
        ).status,
      ).toBe(201);
    }
    await post("2026-03-01", [
      [ordinary, 1234],
      [other, -1234],
    ]);

    const exact = (2n * BigInt(max)).toString();
    expect(await balance(big, "2026-03-31")).toEqual({
      account_id: big,
      as_of: "2026-03-31",
      currency: "USD",
      balance: null,
      balance_exact: exact,
      pending_debits: 0,
      pending_credits: 0,
      room_to_debit: null,
      room_to_credit: null,
    });
    expect((await balance(owed, "2026-03-31")).balance_exact).toBe(`-${exact}`);
    expect(await balance(ordinary, "2026-03-31")).toMatchObject({ balance: 1234, balance_exact: "1234" });

    const all = await client.get<{
      accounts: { id: string; balance: number | null; balance_exact: string }[];
    }>("/balances?as_of=2026-03-31");
    expect(all.status).toBe(200);
    const byId = new Map(all.body.accounts.map((a) => [a.id, a]));
    expect(byId.get(big)).toMatchObject({ balance: null, balance_exact: exact });
    expect(byId.get(owed)).toMatchObject({ balance: null, balance_exact: `-${exact}` });
    expect(byId.get(ordinary)).toMatchObject({ balance: 1234, balance_exact: "1234" });
    expect(byId.get(other)).toMatchObject({ balance: -1234, balance_exact: "-1234" });
    for (const account of all.body.accounts) {
      if (account.balance !== null) expect(account.balance_exact).toBe(String(account.balance));
    }
    // Before the second post the sum was within range: an as_of date before it answers a number.
    expect(await balance(big, "2026-02-28")).toMatchObject({ balance: 0, balance_exact: "0" });
  });

  it("after random balanced postings, every balance is the sum of its entries and each currency sums to zero", async () => {
    const accounts = {
      USD: [
        await client.account("USD"),
        await client.account("USD", "liability"),
        await client.account("USD", "income"),
      ],
      JPY: [await client.account("JPY"), await client.account("JPY", "expense")],
    };
    const posted = new Set<string>();
    const model = new Map<string, number>();

    const leg = (currency: "USD" | "JPY") =>
      fc.tuple(
        fc.constantFrom(...accounts[currency]),
        fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((n) => n !== 0),
      );
    const transaction = fc
      .record({
        usd: fc.array(leg("USD"), { minLength: 1, maxLength: 4 }),
        jpy: fc.array(leg("JPY"), { maxLength: 3 }),
      })
      .map(({ usd, jpy }) => [
        ...balance_(usd, accounts.USD[0]!),
        ...(jpy.length ? balance_(jpy, accounts.JPY[0]!) : []),
      ]);
    /** Adds the leg that makes these legs sum to zero (on `counter`), so every generated transaction balances. */
    function balance_(legs: [string, number][], counter: string): [string, number][] {
      const sum = legs.reduce((s, [, n]) => s + n, 0);
      return sum === 0 ? [...legs, [counter, 1], [counter, -1]] : [...legs, [counter, -sum]];
    }

    await fc.assert(
      fc.asyncProperty(
        fc.array(transaction, { minLength: 1, maxLength: 4 }),
        fc.date({ min: new Date("2025-01-01"), max: new Date("2026-12-31"), noInvalidDate: true }),
        async (transactions, date) => {
          for (const entries of transactions) {
            const result = await post(date.toISOString().slice(0, 10), entries);
            expect(result.status).toBe(201);
            posted.add(result.body.id as string);
            for (const [account, amount] of entries) model.set(account, (model.get(account) ?? 0) + amount);
          }
          for (const account of [...accounts.USD, ...accounts.JPY]) {
            const { rows } = await sql.query<{ sum: string }>(
              "SELECT coalesce(sum(amount), 0)::text AS sum FROM ledger.entries WHERE account_id = $1",
              [account],
            );
            const reported = (await balance(account, "2099-12-31")).balance;
            expect(reported).toBe(Number(rows[0]!.sum));
            expect(reported).toBe(model.get(account) ?? 0);
          }
          const { rows } = await sql.query<{ currency: string; sum: string }>(
            "SELECT currency, sum(amount)::text AS sum FROM ledger.entries WHERE transaction_id = ANY($1::uuid[]) GROUP BY currency",
            [[...posted]],
          );
          for (const row of rows) expect(Number(row.sum), row.currency).toBe(0);
        },
      ),
      { numRuns: 15 },
    );
  });
});

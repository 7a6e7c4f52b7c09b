import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerClient, type LedgerClient } from "../../../test/ledger-client.ts";
import { startLedgerServer, type LedgerServer } from "../../../test/ledger-server.ts";

let ledger: LedgerServer;
let client: LedgerClient;

beforeAll(async () => {
  ledger = await startLedgerServer();
  client = ledgerClient(ledger.url);
});

afterAll(async () => {
  await ledger?.stop();
});

async function post(date: string, entries: [string, number][], key = `t-${crypto.randomUUID()}`) {
  const result = await client.post("/transactions", {
    idempotency_key: key,
    effective_date: date,
    entries: entries.map(([account_id, amount]) => ({ account_id, amount })),
  });
  expect(result.status).toBe(201);
  return result.body as { id: string; entries: { id: string; amount: number; account_id: string }[] };
}

describe("an account's entries", () => {
  it("pages most recent first by effective_date, then created_at and id", async () => {
    const cash = await client.account();
    const other = await client.account();
    const days = ["2026-01-03", "2026-01-01", "2026-01-05", "2026-01-02", "2026-01-04"];
    for (const [i, day] of days.entries())
      await post(day, [
        [cash, i + 1],
        [other, -(i + 1)],
      ]);

    const page = (await client.get(`/accounts/${cash}/entries`)).body as {
      items: { effective_date: string }[];
      limit: number;
      offset: number;
    };
    expect(page.limit).toBe(50);
    expect(page.offset).toBe(0);
    expect(page.items.map((e) => e.effective_date)).toEqual([...days].sort().reverse());

    const second = (await client.get(`/accounts/${cash}/entries?limit=2&offset=2`)).body as {
      items: { effective_date: string }[];
    };
    expect(second.items.map((e) => e.effective_date)).toEqual(["2026-01-03", "2026-01-02"]);
    // A "?" inside the query is part of the query: what follows it still counts.
    const afterMark = (await client.get(`/accounts/${cash}/entries?offset=why?&limit=0`)).body;
    expect(afterMark).toMatchObject({
      issues: [
        { path: "limit", message: expect.any(String) },
        { path: "offset", message: expect.any(String) },
      ],
    });
    expect((await client.get(`/accounts/${cash}/entries?limit=10&offset=5`)).body).toMatchObject({
      items: [],
      offset: 5,
    });
    expect((await client.get(`/accounts/${cash}/entries?limit=10&offset=500`)).body).toMatchObject({
      items: [],
    });
  });

  it("accepts limit 1 and 200, refuses 0, 201, negative offsets and non-numbers with 400", async () => {
    const cash = await client.account();
    expect((await client.get(`/accounts/${cash}/entries?limit=1`)).status).toBe(200);
    expect((await client.get(`/accounts/${cash}/entries?limit=200`)).status).toBe(200);
    expect((await client.get(`/accounts/${cash}/entries?limit=1e1&offset=0`)).body).toMatchObject({
      limit: 10,
    });
    // Numbers as JSON writes them: not an empty value, hexadecimal or binary, nor a parameter sent twice.
    for (const query of [
      "limit=0",
      "limit=201",
      "offset=-1",
      "limit=ten",
      "limit=1.5",
      "offset=abc",
      "offset=",
      "limit=",
      "limit=0x10",
      "limit=0b11",
      "limit=+5",
      "limit= 5",
      "limit=5&limit=6",
    ]) {
      const result = await client.get(`/accounts/${cash}/entries?${query}`);
      expect(result.status, query).toBe(400);
      expect(result.body).toMatchObject({ statusCode: 400, error: "BAD_REQUEST", issues: expect.any(Array) });
    }
    // A parameter sent twice is named for what it is, not as a list that is no number or date.
    for (const path of [
      `/accounts/${cash}/entries?limit=5&limit=6`,
      `/accounts/${cash}/balance?as_of=2026-01-15&as_of=2026-01-16`,
    ]) {
      const twice = (await client.get(path)).body;
      expect(twice.issues, path).toEqual([
        { path: expect.any(String), message: "is given more than once: send it once" },
      ]);
    }
    expect((await client.get("/accounts/6b0c3c4e-4d5e-4f60-8a1b-2c3d4e5f6a7b/entries")).status).toBe(404);
  });
});

describe("reversal", () => {
  it("posts negated entries with reverses_transaction_id, restores balances, and refuses a second reversal (409)", async () => {
    const cash = await client.account("USD");
    const sales = await client.account("USD", "income");
    const original = await post("2026-04-01", [
      [cash, 900],
      [sales, -900],
    ]);
    const balanceOf = async (id: string) =>
      (await client.get(`/accounts/${id}/balance?as_of=2026-12-31`)).body.balance;

    const key = `reversal-${crypto.randomUUID()}`;
    const reversal = await client.post(`/transactions/${original.id}/reversal`, {
      idempotency_key: key,
      effective_date: "2026-04-02",
    });
    expect(reversal.status).toBe(201);
    expect(reversal.body).toMatchObject({
      reverses_transaction_id: original.id,
      effective_date: "2026-04-02",
    });
    expect(
      (reversal.body.entries as { account_id: string; amount: number }[]).map((e) => [
        e.account_id,
        e.amount,
      ]),
    ).toEqual([
      [cash, -900],
      [sales, 900],
    ]);
    expect(await balanceOf(cash)).toBe(0);
    expect(await balanceOf(sales)).toBe(0);
    expect((await client.get(`/accounts/${cash}/balance?as_of=2026-04-01`)).body.balance).toBe(900);

    const replay = await client.post(`/transactions/${original.id}/reversal`, {
      idempotency_key: key,
      effective_date: "2026-04-02",
    });
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(reversal.text);

    const second = await client.post(`/transactions/${original.id}/reversal`, {
      idempotency_key: `again-${crypto.randomUUID()}`,
    });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      statusCode: 409,
      error: "CONFLICT",
      message: `transaction ${original.id} has already been reversed by transaction ${reversal.body.id}`,
    });
    expect(await balanceOf(cash)).toBe(0);
  });

  it("lets only one of several concurrent reversals of a transaction through", async () => {
    const a = await client.account();
    const b = await client.account();
    const original = await post("2026-05-01", [
      [a, 10],
      [b, -10],
    ]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.post(`/transactions/${original.id}/reversal`, { idempotency_key: `r-${crypto.randomUUID()}` }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, ...Array(7).fill(409)]);
  });

  it("answers concurrent reversals with one key as one reversal and its replays, never 409", async () => {
    const a = await client.account();
    const b = await client.account();
    const original = await post("2026-05-02", [
      [a, 10],
      [b, -10],
    ]);
    const key = `r-${crypto.randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.post(`/transactions/${original.id}/reversal`, { idempotency_key: key }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((r) => (r.body as { id: string }).id)).size).toBe(1);
  });

  it("answers 404 for an unknown transaction and 400 for a bad id", async () => {
    expect(
      (
        await client.post("/transactions/6b0c3c4e-4d5e-4f60-8a1b-2c3d4e5f6a7b/reversal", {
          idempotency_key: "x1",
        })
      ).status,
    ).toBe(404);
    expect((await client.post("/transactions/nope/reversal", { idempotency_key: "x2" })).status).toBe(400);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerClient, type LedgerClient } from "../../../test/ledger-client.ts";
import { startLedgerServer, type LedgerServer } from "../../../test/ledger-server.ts";

let ledger: LedgerServer;
let client: LedgerClient;
let cash: string;
let revenue: string;
let euros: string;
let eurRevenue: string;

beforeAll(async () => {
  ledger = await startLedgerServer();
  client = ledgerClient(ledger.url);
  cash = await client.account("USD", "asset");
  revenue = await client.account("USD", "income");
  euros = await client.account("EUR", "asset");
  eurRevenue = await client.account("EUR", "income");
});

afterAll(async () => {
  await ledger?.stop();
});

const key = () => `post-${crypto.randomUUID()}`;

async function transactionCount(account: string): Promise<number> {
  return ((await client.get(`/accounts/${account}/entries?limit=200`)).body.items as unknown[]).length;
}

/** Posts `body` and expects the documented refusal, with nothing written and the key still unused. */
async function expectRejected(
  body: Record<string, unknown>,
  status: number,
  error: string,
  message?: RegExp,
) {
  const before = await Promise.all([cash, revenue, euros].map(transactionCount));
  const result = await client.post("/transactions", body);
  expect(result.status).toBe(status);
  expect(result.body).toMatchObject({ statusCode: status, error });
  if (message) expect(result.body.message).toMatch(message);
  expect(await Promise.all([cash, revenue, euros].map(transactionCount))).toEqual(before);
  // The key was not used: a valid post with it succeeds.
  const retry = await client.post("/transactions", {
    idempotency_key: body.idempotency_key,
    entries: [
      { account_id: cash, amount: 1 },
      { account_id: revenue, amount: -1 },
    ],
  });
  if (
    typeof body.idempotency_key === "string" &&
    body.idempotency_key.length > 0 &&
    body.idempotency_key.length <= 255
  ) {
    expect(retry.status).toBe(201);
  }
  return result;
}

describe("accounts", () => {
  it("creates (201 + Location), lists in creation order, gets, and 404s an unknown id", async () => {
    const created = await client.post("/accounts", { name: "Bank", type: "liability", currency: "JPY" });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/accounts/${created.body.id}`);
    expect(created.body).toMatchObject({
      name: "Bank",
      type: "liability",
      currency: "JPY",
      normal_balance: "credit",
    });
    expect((await client.get(`/accounts/${created.body.id}`)).body).toEqual(created.body);
    const items = await client.allAccounts();
    expect(items.map((a) => a.id).indexOf(cash)).toBeLessThan(
      items.map((a) => a.id).indexOf(created.body.id as string),
    );
    expect((await client.get("/accounts/6b0c3c4e-4d5e-4f60-8a1b-2c3d4e5f6a7b")).status).toBe(404);
    expect((await client.get("/accounts/not-a-uuid")).status).toBe(400);
  });

  it("rejects unknown currencies, lower-case codes, bad types and unknown keys", async () => {
    for (const body of [
      { name: "x", type: "asset", currency: "XYZ" },
      { name: "x", type: "asset", currency: "usd" },
      { name: "x", type: "equity", currency: "USD" },
      { name: "", type: "asset", currency: "USD" },
      { name: "x", type: "asset", currency: "USD", balance: 100 },
      { type: "asset", currency: "USD" },
    ]) {
      const result = await client.post("/accounts", body);
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body).toMatchObject({ statusCode: 400, error: "BAD_REQUEST", issues: expect.any(Array) });
    }
    // One issue each: a lower-case code is not also called unknown.
    const issuesOf = async (currency: string) =>
      (await client.post("/accounts", { name: "x", type: "asset", currency })).body.issues;
    expect(await issuesOf("usd")).toEqual([
      { path: "currency", message: "must be an upper-case ISO 4217 code" },
    ]);
    // Not a code at all, a precious metal, ISO's testing code: not currencies of this ledger.
    for (const code of ["XYZ", "XAU", "XTS"]) {
      expect(await issuesOf(code), code).toEqual([
        {
          path: "currency",
          message:
            "is not a currency this ledger takes (an ISO 4217 currency; the OpenAPI document lists them)",
        },
      ]);
    }
  });

  it("refuses a signed body that is not UTF-8 (400) or says another charset (415), and writes nothing", async () => {
    const name = `Café ${crypto.randomUUID()}`;
    const account = JSON.stringify({ name, type: "asset", currency: "EUR" });
    // Latin-1's "é" is no UTF-8: read loosely, it would be stored as "Caf\uFFFD", not what was signed.
    const latin1 = await client.send("POST", "/accounts", Buffer.from(account, "latin1"));
    expect(latin1.status).toBe(400);
    expect(latin1.body).toEqual({
      statusCode: 400,
      error: "BAD_REQUEST",
      message: "the body is not UTF-8, as JSON must be",
    });
    const said = await client.send("POST", "/accounts", account, "application/json; charset=iso-8859-1");
    expect(said.status).toBe(415);
    expect(said.body).toMatchObject({ message: "the body must be JSON in UTF-8, not iso-8859-1" });
    const names = (await client.allAccounts()).map((a) => a.name);
    const uuid = name.slice("Café ".length);
    expect(names.filter((stored) => stored.endsWith(uuid))).toEqual([]);
  });
});

describe("posting", () => {
  it("posts a balanced transaction: 201, Location, entries in posted order, date defaulting to today (UTC)", async () => {
    const posted = await client.post("/transactions", {
      idempotency_key: key(),
      description: "First sale",
      entries: [
        { account_id: cash, amount: 2500 },
        { account_id: revenue, amount: -2500 },
      ],
    });
    expect(posted.status).toBe(201);
    expect(posted.headers.get("location")).toBe(`/transactions/${posted.body.id}`);
    const today = new Date().toISOString().slice(0, 10);
    expect(posted.body).toMatchObject({
      description: "First sale",
      effective_date: today,
      reverses_transaction_id: null,
    });
    expect(
      (posted.body.entries as Record<string, unknown>[]).map((e) => [
        e.account_id,
        e.amount,
        e.currency,
        e.effective_date,
      ]),
    ).toEqual([
      [cash, 2500, "USD", today],
      [revenue, -2500, "USD", today],
    ]);
    expect((await client.get(`/transactions/${posted.body.id}`)).text).toBe(posted.text);
  });

  it("accepts several currencies when each sums to zero", async () => {
    const posted = await client.post("/transactions", {
      idempotency_key: key(),
      entries: [
        { account_id: cash, amount: 100 },
        { account_id: revenue, amount: -100 },
        { account_id: euros, amount: 90 },
        { account_id: eurRevenue, amount: -90 },
      ],
    });
    expect(posted.status).toBe(201);
    // The 201 is built from the rows written; a read gives the same bytes, entries in posted order.
    expect((await client.get(`/transactions/${posted.body.id}`)).text).toBe(posted.text);
  });

  it("rejects an unbalanced transaction: 422 UNBALANCED_TRANSACTION", async () => {
    await expectRejected(
      {
        idempotency_key: key(),
        entries: [
          { account_id: cash, amount: 100 },
          { account_id: revenue, amount: -99 },
        ],
      },
      422,
      "UNBALANCED_TRANSACTION",
      /USD sums to 1/,
    );
  });

  it("sums exactly: amounts whose floating-point total is 0 but whose true total is 1 are 422", async () => {
    const max = Number.MAX_SAFE_INTEGER;
    // Each account's own sum stays within range; only the currency's total passes it.
    const [moreCash, moreRevenue] = [await client.account("USD"), await client.account("USD", "income")];
    const [thirdCash, thirdRevenue] = [await client.account("USD"), await client.account("USD", "income")];
    await expectRejected(
      {
        idempotency_key: key(),
        entries: [
          { account_id: cash, amount: max },
          { account_id: moreCash, amount: max },
          { account_id: thirdCash, amount: 2 },
          { account_id: revenue, amount: -max },
          { account_id: moreRevenue, amount: -max },
          { account_id: thirdRevenue, amount: -1 },
        ],
      },
      422,
      "UNBALANCED_TRANSACTION",
      /USD sums to 1\b/,
    );
  });

  it("refuses entries of one account whose sum in the transaction passes ±(2^53-1): 400, in a post and a batch item", async () => {
    const max = Number.MAX_SAFE_INTEGER;
    // Balanced, every amount legal, but cash would move by 2^54-2 in one transaction.
    const entries = [
      { account_id: cash, amount: max },
      { account_id: cash.toUpperCase(), amount: max },
      { account_id: revenue, amount: -max },
      { account_id: revenue, amount: -max },
    ];
    const result = await expectRejected({ idempotency_key: key(), entries }, 400, "BAD_REQUEST");
    expect(result.body.issues).toEqual([
      {
        path: "entries",
        message: `the entries of account ${cash} sum to ${2n * BigInt(max)}, beyond ±(2^53-1)`,
      },
      {
        path: "entries",
        message: `the entries of account ${revenue} sum to ${-2n * BigInt(max)}, beyond ±(2^53-1)`,
      },
    ]);
    const batch = await client.post<{ results: { status: number }[] }>("/transactions/batch", {
      transactions: [{ idempotency_key: key(), entries }],
    });
    expect(batch.body.results.map((r) => r.status)).toEqual([400]);
    // One account may still reach the range's edge in one transaction.
    const edge = await client.post("/transactions", {
      idempotency_key: key(),
      entries: [
        { account_id: cash, amount: max - 1 },
        { account_id: cash, amount: 1 },
        { account_id: revenue, amount: -max },
      ],
    });
    expect(edge.status).toBe(201);
  });

  it("rejects currencies that balance only together: 422 UNBALANCED_TRANSACTION", async () => {
    await expectRejected(
      {
        idempotency_key: key(),
        entries: [
          { account_id: cash, amount: 100 },
          { account_id: euros, amount: -100 },
        ],
      },
      422,
      "UNBALANCED_TRANSACTION",
      /USD sums to 100, EUR sums to -100/,
    );
  });

  it("rejects an unknown account, naming it: 422 UNKNOWN_ACCOUNT", async () => {
    const ghost = "0e8f2f4a-6d7b-4c1e-9a2b-3c4d5e6f7a8b";
    await expectRejected(
      {
        idempotency_key: key(),
        entries: [
          { account_id: cash, amount: 5 },
          { account_id: ghost, amount: -5 },
        ],
      },
      422,
      "UNKNOWN_ACCOUNT",
      new RegExp(ghost),
    );
  });

  it("rejects an unknown account even when the other entries balance on their own (never drops an entry)", async () => {
    const ghost = "5a1f0c2e-7b3d-4e8f-9a0b-1c2d3e4f5a6b";
    await expectRejected(
      {
        idempotency_key: key(),
        entries: [
          { account_id: cash, amount: 5 },
          { account_id: revenue, amount: -5 },
          { account_id: ghost, amount: 7 },
        ],
      },
      422,
      "UNKNOWN_ACCOUNT",
      new RegExp(ghost),
    );
  });

  it.each([
    ["one entry", [{ amount: 5 }], "entries"],
    ["no entries", [], "entries"],
    ["a zero amount", [{ amount: 0 }, { amount: 0 }], "entries.0.amount"],
    ["a fractional amount", [{ amount: 10.5 }, { amount: -10.5 }], "entries.0.amount"],
    ["an amount beyond 2^53-1", [{ amount: 2 ** 53 }, { amount: -(2 ** 53) }], "entries.0.amount"],
    ["an amount given as a string", [{ amount: "5" }, { amount: "-5" }], "entries.0.amount"],
  ])("rejects %s: 400 with the issue's path", async (_name, amounts, path) => {
    const entries = (amounts as { amount: unknown }[]).map((e, i) => ({
      account_id: i % 2 ? revenue : cash,
      amount: e.amount,
    }));
    const result = await expectRejected({ idempotency_key: key(), entries }, 400, "BAD_REQUEST");
    expect((result.body.issues as { path: string }[]).map((i) => i.path)).toContain(path);
  });

  it("rejects a fraction that JSON parsing would round to a whole amount: 400 at each amount, nothing written", async () => {
    const before = await transactionCount(cash);
    const body = (first: string, second: string) =>
      `{"idempotency_key": "${key()}", "entries": [{"account_id": "${cash}", "amount": ${first}},
        {"account_id": "${revenue}", "amount": ${second}}]}`;
    for (const amount of ["1.0000000000000001", "9007199254740990.9"]) {
      const result = await client.post("/transactions", body(amount, `-${amount}`));
      expect(result.status, amount).toBe(400);
      expect(result.body.issues, amount).toEqual([
        { path: "entries.0.amount", message: expect.stringContaining(amount) },
        { path: "entries.1.amount", message: expect.stringContaining(`-${amount}`) },
      ]);
    }
    const batch = await client.post(
      "/transactions/batch",
      `{"transactions": [${body("5", "-5")}, ${body("2.00000000000000001", "-2")}]}`,
    );
    expect([batch.status, batch.body.issues]).toEqual([
      400,
      [expect.objectContaining({ path: "transactions.1.entries.0.amount" })],
    ]);
    expect(await transactionCount(cash)).toBe(before);
    // A whole amount written in another exact form is taken.
    const exact = await client.post("/transactions", body("1.0e0", "-100e-2"));
    expect([exact.status, exact.body.entries]).toMatchObject([201, [{ amount: 1 }, { amount: -1 }]]);
  });

  it("rejects a member given twice, where JSON parsing would keep the last: 400 at its path, nothing written", async () => {
    const before = await transactionCount(cash);
    const body = (first: string, second: string) =>
      `{"idempotency_key": "${key()}", "entries": [{"account_id": "${cash}", ${first}},
        {"account_id": "${revenue}", ${second}}]}`;
    const twice = await client.post("/transactions", body('"amount": 1, "amount": 100', '"amount": -100'));
    expect([twice.status, twice.body.issues]).toEqual([
      400,
      [{ path: "entries.0.amount", message: "is given more than once: send it once" }],
    ]);
    const idempotencyTwice = await client.post(
      "/transactions",
      `{"idempotency_key": "${key()}", "idempotency_key": "${key()}", "entries": []}`,
    );
    expect(idempotencyTwice.body.issues).toEqual([
      { path: "idempotency_key", message: "is given more than once: send it once" },
    ]);
    const batch = await client.post(
      "/transactions/batch",
      `{"transactions": [${body('"amount": 5', '"amount": -5')}, ${body('"amount": 2', `"amount": -2, "account_id": "${cash}"`)}]}`,
    );
    expect([batch.status, batch.body.issues]).toEqual([
      400,
      [{ path: "transactions.1.entries.1.account_id", message: "is given more than once: send it once" }],
    ]);
    expect(await transactionCount(cash)).toBe(before);
  });

  it("rejects a bad idempotency key, date, account id or unknown key: 400", async () => {
    const entries = [
      { account_id: cash, amount: 1 },
      { account_id: revenue, amount: -1 },
    ];
    for (const [body, path] of [
      [{ entries }, "idempotency_key"],
      [{ idempotency_key: "", entries }, "idempotency_key"],
      [{ idempotency_key: "k".repeat(256), entries }, "idempotency_key"],
      [{ idempotency_key: key(), effective_date: "2026-02-30", entries }, "effective_date"],
      // The ISO pattern allows year 0000; PostgreSQL has no year 0.
      [{ idempotency_key: key(), effective_date: "0000-01-01", entries }, "effective_date"],
      // A lone surrogate would be stored as U+FFFD, one transaction for two keys.
      [{ idempotency_key: `key-${key()}-\ud800`, entries }, "idempotency_key"],
      // Stored as U+FFFD, the description would not be what the 201 answered.
      [{ idempotency_key: key(), description: "lone \udc00 half", entries }, "description"],
      [
        { idempotency_key: key(), entries: [{ account_id: "nope", amount: 1 }, entries[1]] },
        "entries.0.account_id",
      ],
      [{ idempotency_key: key(), entries, memo: "x" }, "memo"],
    ] as [Record<string, unknown>, string][]) {
      const result = await client.post("/transactions", body);
      expect(result.status, path).toBe(400);
      expect((result.body.issues as { path: string }[]).map((i) => i.path)).toContain(path);
    }
  });

  it("answers a field left out with 'is required' at its path, not a type or format error", async () => {
    const [first, second] = [
      { account_id: cash, amount: 5 },
      { account_id: revenue, amount: -5 },
    ];
    const result = await client.post("/transactions", { entries: [{ amount: 5 }, second] });
    expect(result.status).toBe(400);
    expect(result.body.issues).toEqual([
      { path: "idempotency_key", message: "is required" },
      { path: "entries.0.account_id", message: "is required" },
    ]);
    // Sent, but wrong: the field's own words still.
    const wrong = await client.post("/transactions", {
      idempotency_key: 7,
      entries: [{ ...first, account_id: null }, second],
    });
    expect(wrong.body.issues).toEqual([
      { path: "idempotency_key", message: "Invalid input: expected string, received number" },
      { path: "entries.0.account_id", message: "must be a uuid" },
    ]);
  });

  it("answers a value of the wrong type with its type error alone", async () => {
    const result = await client.post("/transactions", { idempotency_key: key(), entries: "x" });
    expect(result.status).toBe(400);
    expect(result.body.issues).toEqual([
      { path: "entries", message: "Invalid input: expected array, received string" },
    ]);
  });

  it("answers 415 to a body that is not JSON, 413 past 64 KiB, 405 with Allow to a wrong method", async () => {
    const before = await transactionCount(cash);
    const notJson = await client.send("POST", "/transactions", '{"idempotency_key":"x"}', "text/plain");
    expect(notJson.status).toBe(415);
    expect(notJson.body).toMatchObject({ statusCode: 415, error: "UNSUPPORTED_MEDIA_TYPE" });
    // No body and no Content-Type reads as {}: the fields it lacks are named.
    const empty = await client.send("POST", "/transactions");
    expect([empty.status, empty.body.issues]).toEqual([
      400,
      [
        { path: "idempotency_key", message: expect.any(String) },
        { path: "entries", message: expect.any(String) },
      ],
    ]);
    const post = {
      idempotency_key: key(),
      entries: [
        { account_id: cash, amount: 1 },
        { account_id: revenue, amount: -1 },
      ],
    };
    // A plain body under a coding's name: taken as it is, it would be read as what it does not say.
    for (const encoding of ["gzip", "br, identity"]) {
      const encoded = await client.send("POST", "/transactions", JSON.stringify(post), "application/json", {
        "content-encoding": encoding,
      });
      expect([encoded.status, encoded.body.error, encoded.headers.get("accept-encoding")], encoding).toEqual([
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        "identity",
      ]);
    }
    const large = await client.post("/transactions", {
      idempotency_key: key(),
      description: "x".repeat(70_000),
      entries: [
        { account_id: cash, amount: 1 },
        { account_id: revenue, amount: -1 },
      ],
    });
    expect(large.status).toBe(413);
    expect(large.body).toMatchObject({ statusCode: 413, error: "PAYLOAD_TOO_LARGE" });
    const wrongMethod = await client.send("PUT", "/transactions", {});
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST, GET, HEAD");
    expect(wrongMethod.body).toMatchObject({ statusCode: 405, error: "METHOD_NOT_ALLOWED" });
    expect(await transactionCount(cash)).toBe(before);
    const identity = await client.send("POST", "/transactions", JSON.stringify(post), "application/json", {
      "content-encoding": "identity",
    });
    expect(identity.status).toBe(201);
  });

  it("answers malformed JSON, a non-JSON body and an unknown transaction id with the documented errors", async () => {
    expect((await client.send("POST", "/transactions", "{not json")).body).toMatchObject({
      statusCode: 400,
      error: "BAD_REQUEST",
    });
    expect((await client.get("/transactions/6b0c3c4e-4d5e-4f60-8a1b-2c3d4e5f6a7b")).status).toBe(404);
    expect((await client.get("/transactions/123")).status).toBe(400);
    expect((await client.send("DELETE", "/transactions/6b0c3c4e-4d5e-4f60-8a1b-2c3d4e5f6a7b")).status).toBe(
      405,
    );
    expect((await client.get("/nowhere")).body).toMatchObject({ statusCode: 404, error: "NOT_FOUND" });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerClient, type LedgerClient } from "../../../test/ledger-client.ts";
import {
  OTHER_FULL_KEY,
  POSTER_KEY,
  ROTATED_FULL_KEY,
  startLedgerServer,
  type LedgerServer,
} from "../../../test/ledger-server.ts";

let ledger: LedgerServer;
let client: LedgerClient;
let cash: string;
let revenue: string;

beforeAll(async () => {
  ledger = await startLedgerServer();
  client = ledgerClient(ledger.url);
  cash = await client.account("USD", "asset");
  revenue = await client.account("USD", "income");
});

afterAll(async () => {
  await ledger?.stop();
});

const body = (key: string, amount = 700) => ({
  idempotency_key: key,
  description: "idempotent",
  effective_date: "2026-03-01",
  entries: [
    { account_id: cash, amount },
    { account_id: revenue, amount: -amount },
  ],
});

async function entriesOf(account: string): Promise<unknown[]> {
  return (await client.get(`/accounts/${account}/entries?limit=200`)).body.items as unknown[];
}

describe("idempotency", () => {
  it("replays a known key with the same body: 200, Idempotent-Replayed, the first answer byte for byte, nothing posted", async () => {
    const key = `replay-${crypto.randomUUID()}`;
    const first = await client.post("/transactions", body(key));
    expect(first.status).toBe(201);
    const before = (await entriesOf(cash)).length;

    const again = await client.post("/transactions", body(key));
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("idempotency-key-mismatch")).toBeNull();
    expect(again.text).toBe(first.text);
    expect((await entriesOf(cash)).length).toBe(before);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
  });

  it("counts a key's 255 characters in code points: an emoji is one", async () => {
    const emoji = "\u{1F600}";
    const fits = `${crypto.randomUUID()}${emoji.repeat(219)}`; // 36 + 219 = 255 characters, 474 UTF-16 units
    const written = await client.post("/transactions", body(fits));
    expect([written.status, written.body.idempotency_key]).toEqual([201, fits]);
    const refused = await client.post("/transactions", body(`${fits}a`));
    expect([refused.status, refused.body.issues]).toEqual([
      400,
      [{ path: "idempotency_key", message: "must be at most 255 characters" }],
    ]);
  });

  it("answers a known key with a different body with the original, flags the mismatch and logs a warning", async () => {
    const key = `mismatch-${crypto.randomUUID()}`;
    const first = await client.post("/transactions", body(key, 700));
    const different = await client.post("/transactions", body(key, 999));
    expect(different.status).toBe(200);
    expect(different.headers.get("idempotent-replayed")).toBe("true");
    expect(different.headers.get("idempotency-key-mismatch")).toBe("true");
    expect(different.text).toBe(first.text);
    expect(ledger.warnings.some((w) => w.includes(key))).toBe(true);

    // Even an invalid body replays the original: the key decides.
    const unbalanced = await client.post("/transactions", {
      ...body(key),
      entries: [
        { account_id: cash, amount: 1 },
        { account_id: revenue, amount: 2 },
      ],
    });
    expect(unbalanced.status).toBe(200);
    expect(unbalanced.text).toBe(first.text);
    const unknownAccount = await client.post("/transactions", {
      ...body(key),
      entries: [
        { account_id: cash, amount: 1 },
        { account_id: "0b9e8d7c-6f5a-4b3c-8d2e-1f0a9b8c7d6e", amount: -1 },
      ],
    });
    expect(unknownAccount.status).toBe(200);
    expect(unknownAccount.text).toBe(first.text);
  });

  it("takes a retry that says the same in other words for the same body: fields in another order, defaults sent, ids in upper case", async () => {
    const key = `same-${crypto.randomUUID()}`;
    const first = await client.post("/transactions", { ...body(key), metadata: { b: "2", a: "1" } });
    expect(first.status).toBe(201);
    const { idempotency_key, description, effective_date, entries } = body(key);
    for (const retry of [
      // The same fields, written in reverse order; metadata's keys too.
      {
        metadata: { a: "1", b: "2" },
        entries: entries.map(({ account_id, amount }) => ({ amount, account_id })),
        effective_date,
        description,
        idempotency_key,
      },
      {
        ...body(key),
        metadata: { b: "2", a: "1" },
        entries: entries.map((e) => ({ ...e, account_id: e.account_id.toUpperCase() })),
      },
    ]) {
      const again = await client.post("/transactions", retry);
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
      expect(again.headers.get("idempotency-key-mismatch"), JSON.stringify(retry)).toBeNull();
    }
    // An omitted metadata is {}: the same as one sent empty.
    const plain = `plain-${crypto.randomUUID()}`;
    expect((await client.post("/transactions", body(plain))).status).toBe(201);
    const withDefaults = await client.post("/transactions", {
      ...body(plain),
      metadata: {},
      description: "idempotent",
    });
    expect(withDefaults.headers.get("idempotency-key-mismatch")).toBeNull();
    // Other metadata is another body.
    const other = await client.post("/transactions", { ...body(key), metadata: { a: "1", b: "3" } });
    expect(other.headers.get("idempotency-key-mismatch")).toBe("true");
  });

  it("answers a new post as GET and every replay answer it later, byte for byte: posts, batch items, reversals", async () => {
    // Accounts of its own: a balance past ±(2^53-1) would break other files' GET /balances.
    const [dollars, dollarIncome] = [
      await client.account("USD", "asset"),
      await client.account("USD", "income"),
    ];
    const [euros, euroIncome] = [await client.account("EUR", "asset"), await client.account("EUR", "income")];
    const post = {
      idempotency_key: `fresh-${crypto.randomUUID()}`,
      description: 'Zoë’s café ☕ "quoted" \\ \u0001',
      effective_date: "2024-02-29",
      entries: [
        { account_id: dollars.toUpperCase(), amount: Number.MAX_SAFE_INTEGER },
        { account_id: dollarIncome, amount: -Number.MAX_SAFE_INTEGER },
        { account_id: euros, amount: -1 },
        { account_id: euroIncome.toUpperCase(), amount: 1 },
      ],
    };
    const plain = {
      idempotency_key: `fresh-${crypto.randomUUID()}`,
      entries: [
        { account_id: cash, amount: 5 },
        { account_id: revenue, amount: -5 },
      ],
    };
    const item = { ...plain, idempotency_key: `fresh-${crypto.randomUUID()}` };
    const firsts = [
      (await client.post("/transactions", post)).text,
      (await client.post("/transactions", plain)).text,
    ];
    const batch = await client.post<{ results: { status: number; transaction: { id: string } }[] }>(
      "/transactions/batch",
      { transactions: [item] },
    );
    expect(batch.body.results[0]!.status).toBe(201);
    firsts.push(JSON.stringify(batch.body.results[0]!.transaction));
    const reversal = await client.post(`/transactions/${JSON.parse(firsts[0]!).id}/reversal`, {
      idempotency_key: `fresh-${crypto.randomUUID()}`,
    });
    expect(reversal.status).toBe(201);
    firsts.push(reversal.text);

    for (const first of firsts) {
      const { id } = JSON.parse(first) as { id: string };
      expect((await client.get(`/transactions/${id}`)).text).toBe(first);
    }
    expect((await client.post("/transactions", post)).text).toBe(firsts[0]);
    expect((await client.post("/transactions", plain)).text).toBe(firsts[1]);
    const replayedBatch = await client.post<{ results: { status: number; transaction: unknown }[] }>(
      "/transactions/batch",
      { transactions: [item] },
    );
    expect(JSON.stringify(replayedBatch.body.results[0]!.transaction)).toBe(firsts[2]);
  });

  it("makes exactly one transaction of 50 simultaneous posts with one key, and all 50 answer it", async () => {
    const key = `concurrent-${crypto.randomUUID()}`;
    const before = (await entriesOf(cash)).length;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => client.post("/transactions", body(key))),
    );

    expect(answers.map((a) => a.status).sort()).toEqual([...Array(49).fill(200), 201]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(49);
    expect((await entriesOf(cash)).length).toBe(before + 1);
  });

  describe("keys belong to the principal that used them", () => {
    const clientOf = (key: typeof POSTER_KEY) => ledgerClient(ledger.url, key);

    it("a post with another principal's key is a new transaction of its own, never the other's (no read without ledger:Read)", async () => {
      const key = `theirs-${crypto.randomUUID()}`;
      const mine = await client.post("/transactions", body(key, 700));
      expect(mine.status).toBe(201);

      const theirs = await clientOf(POSTER_KEY).post("/transactions", body(key, 333));
      expect(theirs.status).toBe(201);
      expect(theirs.headers.get("idempotent-replayed")).toBeNull();
      expect(theirs.body.id).not.toBe(mine.body.id);
      expect(theirs.body.entries).toMatchObject([{ amount: 333 }, { amount: -333 }]);
      // Each principal's replay answers its own transaction.
      expect((await clientOf(POSTER_KEY).post("/transactions", body(key, 333))).text).toBe(theirs.text);
      expect((await client.post("/transactions", body(key, 700))).text).toBe(mine.text);
    });

    it("a key claimed first by another principal does not turn this principal's real post into a replay", async () => {
      const key = `claimed-${crypto.randomUUID()}`;
      const claim = await clientOf(POSTER_KEY).post("/transactions", body(key, 1));
      expect(claim.status).toBe(201);
      const real = await client.post("/transactions", body(key, 700));
      expect(real.status).toBe(201);
      expect(real.body.entries).toMatchObject([{ amount: 700 }, { amount: -700 }]);
    });

    it("a rotated key pair of the same principal shares its keys", async () => {
      const key = `rotated-${crypto.randomUUID()}`;
      const first = await client.post("/transactions", body(key));
      const again = await clientOf(ROTATED_FULL_KEY).post("/transactions", body(key));
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
    });

    it("holds for batch items and reversals, and for simultaneous posts of two principals with one key", async () => {
      const key = `shared-${crypto.randomUUID()}`;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => clientOf(i % 2 ? OTHER_FULL_KEY : POSTER_KEY)).map((c) =>
          c.post("/transactions", body(key)),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(18).fill(200), 201, 201]);
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(2);

      const batchKey = `batch-${crypto.randomUUID()}`;
      const mine = await client.post("/transactions", body(batchKey));
      const batch = await clientOf(POSTER_KEY).post<{
        results: { status: number; transaction: { id: string } }[];
      }>("/transactions/batch", { transactions: [body(batchKey)], atomic: true });
      expect(batch.body.results.map((r) => r.status)).toEqual([201]);
      expect(batch.body.results[0]!.transaction.id).not.toBe(mine.body.id);

      const reversalKey = `reversal-${crypto.randomUUID()}`;
      const reversed = await client.post(`/transactions/${String(mine.body.id)}/reversal`, {
        idempotency_key: reversalKey,
      });
      expect(reversed.status).toBe(201);
      const otherReversal = await clientOf(POSTER_KEY).post(
        `/transactions/${batch.body.results[0]!.transaction.id}/reversal`,
        { idempotency_key: reversalKey },
      );
      expect(otherReversal.status).toBe(201);
      expect(otherReversal.body.reverses_transaction_id).toBe(batch.body.results[0]!.transaction.id);
    });
  });
});

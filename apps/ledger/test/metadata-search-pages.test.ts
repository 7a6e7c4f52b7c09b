import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { listCursor } from "../../../packages/ledger/src/list-cursor.ts";
import { ledgerClient, type LedgerClient } from "../../../test/ledger-client.ts";
import { startLedgerServer, type LedgerServer } from "../../../test/ledger-server.ts";

/**
 * Metadata on accounts and transactions, GET /transactions and GET /accounts
 * with their filters, and cursor pages of every list, against the run's
 * database, where other tests' accounts and transactions are too.
 */
let server: LedgerServer;
let client: LedgerClient;

beforeAll(async () => {
  server = await startLedgerServer();
  client = ledgerClient(server.url);
});

afterAll(async () => {
  await server?.stop();
});

type Page = { items: { id: string; [field: string]: unknown }[]; next_cursor: string | null };
const key = () => `meta-${crypto.randomUUID()}`;
const ids = (page: Page) => page.items.map((item) => item.id);
const unique = () => crypto.randomUUID().slice(0, 8);

async function post(entries: [string, number][], extra: Record<string, unknown> = {}) {
  const posted = await client.post("/transactions", {
    idempotency_key: key(),
    entries: entries.map(([account_id, amount]) => ({ account_id, amount })),
    ...extra,
  });
  expect(posted.status, posted.text).toBe(201);
  return posted.body.id as string;
}

async function page(path: string): Promise<Page> {
  const answer = await client.get<Page>(path);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** Every item of a list, following next_cursor; `between` runs after each page. */
async function everyPage(path: string, between: () => Promise<unknown> = async () => {}) {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const current = await page(cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path);
    seen.push(...ids(current));
    cursor = current.next_cursor;
    await between();
  } while (cursor);
  return seen;
}

describe("metadata", () => {
  it("is kept on accounts and answered ({} when none); PATCH replaces it whole", async () => {
    const plain = await client.post("/accounts", { name: "plain", type: "asset", currency: "USD" });
    expect(plain.body.metadata).toEqual({});
    const created = await client.post("/accounts", {
      name: "tagged",
      type: "asset",
      currency: "USD",
      metadata: { customer: "cus_1", "region.eu:west-1_a": "x" },
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata).toEqual({ customer: "cus_1", "region.eu:west-1_a": "x" });
    const id = created.body.id as string;
    expect((await client.get(`/accounts/${id}`)).body.metadata).toEqual(created.body.metadata);

    const patched = await client.send("PATCH", `/accounts/${id}`, { metadata: { tier: "gold" } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.metadata).toEqual({ tier: "gold" });
    expect((await client.get(`/accounts/${id}`)).body).toMatchObject({
      name: "tagged",
      metadata: { tier: "gold" },
    });
    expect((await client.send("PATCH", `/accounts/${id}`, { metadata: {} })).body.metadata).toEqual({});
  });

  it("is fixed on a transaction, answered by GET byte for byte, and part of what a replay compares", async () => {
    const [cash, sales] = [await client.account(), await client.account("USD", "income")];
    const body = {
      idempotency_key: key(),
      entries: [
        { account_id: cash, amount: 5 },
        { account_id: sales, amount: -5 },
      ],
      // Not in jsonb's key order: the new post's answer must still be the replay's bytes.
      metadata: { order_id: "ord_1", a: "1", zz: "2", "10": "3" },
    };
    const posted = await client.post("/transactions", body);
    expect(posted.status).toBe(201);
    expect(posted.body.metadata).toEqual({ order_id: "ord_1", a: "1", zz: "2", "10": "3" });
    // As the docs say: whole-number keys first, then jsonb's order (shorter keys first).
    expect(posted.text).toContain(`"metadata":{"10":"3","a":"1","zz":"2","order_id":"ord_1"}`);
    expect((await client.get(`/transactions/${posted.body.id}`)).text).toBe(posted.text);

    const replay = await client.post("/transactions", body);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(posted.text);
    expect(replay.headers.get("idempotency-key-mismatch")).toBeNull();
    const otherMetadata = await client.post("/transactions", { ...body, metadata: { order_id: "ord_2" } });
    expect(otherMetadata.status).toBe(200);
    expect(otherMetadata.headers.get("idempotency-key-mismatch")).toBe("true");
    expect(otherMetadata.body.metadata).toEqual(posted.body.metadata);
  });

  it("refuses what is not string values under short keys with a 400 at the field, and writes nothing", async () => {
    const [cash, sales] = [await client.account(), await client.account("USD", "income")];
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"]));
    const cases: [unknown, string][] = [
      [many, "metadata"],
      [{ "bad key": "v" }, "metadata.bad key"],
      [{ ["k".repeat(41)]: "v" }, `metadata.${"k".repeat(41)}`],
      [{ ok: "v".repeat(501) }, "metadata.ok"],
      [{ amount: 5 }, "metadata.amount"],
      [{ nested: { a: "b" } }, "metadata.nested"],
      [["a"], "metadata"],
      ["text", "metadata"],
    ];
    for (const [metadata, path] of cases) {
      const idempotency_key = key();
      const refused = await client.post("/transactions", {
        idempotency_key,
        entries: [
          { account_id: cash, amount: 1 },
          { account_id: sales, amount: -1 },
        ],
        metadata,
      });
      expect(refused.status, JSON.stringify(metadata).slice(0, 80)).toBe(400);
      expect(refused.body).toMatchObject({ statusCode: 400, error: "BAD_REQUEST" });
      expect((refused.body.issues as { path: string }[]).map((i) => i.path)).toContain(path);
      const account = await client.post("/accounts", { name: "x", type: "asset", currency: "USD", metadata });
      expect(account.status).toBe(400);
    }
    // JSON.parse keeps "__proto__" as a key; it must not vanish into an object's prototype.
    const proto = await client.send(
      "POST",
      "/accounts",
      '{"name":"p","type":"asset","currency":"USD","metadata":{"__proto__":"x"}}',
    );
    expect(proto.status).toBe(400);
    expect((await page(`/transactions?account_id=${cash}`)).items).toEqual([]);
  });
});

describe("GET /transactions", () => {
  it("finds by metadata among everyone's transactions, newest first, each filter alone and together", async () => {
    const tag = unique();
    const [cash, sales, other] = [
      await client.account(),
      await client.account("USD", "income"),
      await client.account(),
    ];
    const first = await post(
      [
        [cash, 10],
        [sales, -10],
      ],
      { metadata: { batch: tag, kind: "sale" }, effective_date: "2026-01-10" },
    );
    const second = await post(
      [
        [other, 20],
        [sales, -20],
      ],
      { metadata: { batch: tag, kind: "sale" }, effective_date: "2026-02-10" },
    );
    const third = await post(
      [
        [cash, 30],
        [sales, -30],
      ],
      { metadata: { batch: tag, kind: "refund" }, effective_date: "2026-03-10" },
    );
    // Another caller's transactions with other values of the same keys.
    await post(
      [
        [other, 1],
        [sales, -1],
      ],
      { metadata: { batch: `${tag}-not`, kind: "sale" } },
    );

    expect(ids(await page(`/transactions?metadata[batch]=${tag}`))).toEqual([third, second, first]);
    expect(ids(await page(`/transactions?metadata%5Bbatch%5D=${tag}&metadata[kind]=sale`))).toEqual([
      second,
      first,
    ]);
    expect(ids(await page(`/transactions?metadata[batch]=${tag}&account_id=${cash}`))).toEqual([
      third,
      first,
    ]);
    expect(ids(await page(`/transactions?account_id=${cash}`))).toEqual([third, first]);
    expect(
      ids(
        await page(`/transactions?metadata[batch]=${tag}&effective_from=2026-02-01&effective_to=2026-03-10`),
      ),
    ).toEqual([third, second]);
    expect(ids(await page(`/transactions?metadata[batch]=${tag}&effective_to=2026-02-10`))).toEqual([
      second,
      first,
    ]);
    expect(ids(await page(`/transactions?metadata[batch]=${tag}&status=posted`))).toEqual([
      third,
      second,
      first,
    ]);
    expect(ids(await page(`/transactions?metadata[batch]=${tag}&status=pending`))).toEqual([]);
    expect(ids(await page(`/transactions?metadata[batch]=${tag}&limit=2`))).toEqual([third, second]);
    const all = await page(`/transactions?limit=3`);
    expect(all.items).toHaveLength(3);
    expect(all.next_cursor).toEqual(expect.any(String));
  });

  it("filters by status as GET derives it: pending, posted, voided and expired holds, and the account's holds", async () => {
    const [wallet, shop] = [await client.account("USD", "liability"), await client.account("USD", "income")];
    const holdOf = (seconds: number) => ({ hold: { expires_in_seconds: seconds } });
    const pending = await post(
      [
        [wallet, 5],
        [shop, -5],
      ],
      holdOf(600),
    );
    const toVoid = await post(
      [
        [wallet, 6],
        [shop, -6],
      ],
      holdOf(600),
    );
    const toPost = await post(
      [
        [wallet, 7],
        [shop, -7],
      ],
      holdOf(600),
    );
    const expiring = await post(
      [
        [wallet, 8],
        [shop, -8],
      ],
      holdOf(1),
    );
    expect((await client.post(`/transactions/${toVoid}/void`, { idempotency_key: key() })).status).toBe(200);
    const capture = await client.post(`/transactions/${toPost}/post`, { idempotency_key: key() });
    expect(capture.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    const of = (status: string) => page(`/transactions?account_id=${wallet}&status=${status}`).then(ids);
    expect(await of("pending")).toEqual([pending]);
    expect(await of("voided")).toEqual([toVoid]);
    expect(await of("expired")).toEqual([expiring]);
    expect(await of("posted")).toEqual([capture.body.id, toPost]);
    expect(ids(await page(`/transactions?account_id=${wallet}`))).toEqual([
      capture.body.id,
      expiring,
      toPost,
      toVoid,
      pending,
    ]);
  });

  it("finds a transaction's reversal and a hold's post by their originals, each once, and nothing for others", async () => {
    const [wallet, shop] = [await client.account("USD", "liability"), await client.account("USD", "income")];
    const sale = await post([
      [wallet, 10],
      [shop, -10],
    ]);
    const unreversed = await post([
      [wallet, 3],
      [shop, -3],
    ]);
    const reversal = await client.post(`/transactions/${sale}/reversal`, { idempotency_key: key() });
    expect(reversal.status, reversal.text).toBe(201);
    const holdOf = { hold: { expires_in_seconds: 600 } };
    const captured = await post(
      [
        [wallet, 7],
        [shop, -7],
      ],
      holdOf,
    );
    const voided = await post(
      [
        [wallet, 6],
        [shop, -6],
      ],
      holdOf,
    );
    const capture = await client.post(`/transactions/${captured}/post`, { idempotency_key: key() });
    expect(capture.status, capture.text).toBe(201);
    expect((await client.post(`/transactions/${voided}/void`, { idempotency_key: key() })).status).toBe(200);

    const found = (query: string) => page(`/transactions?${query}`).then(ids);
    expect(await found(`reverses_transaction_id=${sale}`)).toEqual([reversal.body.id]);
    expect(await found(`reverses_transaction_id=${sale.toUpperCase()}`)).toEqual([reversal.body.id]);
    expect(await found(`reverses_transaction_id=${unreversed}`)).toEqual([]);
    expect(await found(`hold_id=${captured}`)).toEqual([capture.body.id]);
    expect(await found(`hold_id=${voided}`)).toEqual([]);
    // With the other filters, as every filter combines: on the account, and not when another excludes it.
    expect(await found(`hold_id=${captured}&account_id=${wallet}&status=posted`)).toEqual([capture.body.id]);
    expect(await found(`reverses_transaction_id=${sale}&account_id=${await client.account()}`)).toEqual([]);
  });

  it("answers 400 for a bad filter, limit or cursor", async () => {
    const bad = [
      "status=open",
      "account_id=nope",
      "effective_from=2026-13-01",
      "effective_from=2026-03-02&effective_to=2026-03-01",
      "limit=0",
      "limit=201",
      "metadata=plain",
      "metadata[bad key]=x",
      `metadata[x]=${"v".repeat(501)}`,
      "metadata[a]=1&metadata[a]=2",
      "metadata[__proto__]=x",
      ["a", "b", "c", "d", "e", "f"].map((k) => `metadata[${k}]=1`).join("&"),
      // Not metadata[KEY]: filters a client meant, never dropped to answer every transaction.
      "metadata[a][b]=1",
      "metadata[a]b=1",
      "metadata[a=1",
      "metadata%5Ba%5D%5Bb%5D=1",
      "metadata.a=1",
      "cursor=not-a-cursor",
      "reverses_transaction_id=nope",
      "hold_id=1",
    ];
    for (const query of bad) {
      const answer = await client.get(`/transactions?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toMatchObject({ statusCode: 400, error: "BAD_REQUEST" });
    }
  });

  it("answers 400 naming a query parameter the route does not take, on every GET route", async () => {
    const account = await client.account();
    const transaction = await post([
      [account, 1],
      [await client.account(), -1],
    ]);
    // A misspelt filter (acount_id) would otherwise answer the whole ledger.
    for (const path of [
      "/accounts?acount_type=asset",
      `/accounts/${account}?as_of=2026-01-01`,
      `/accounts/${account}/entries?acount_id=${account}`,
      `/accounts/${account}/balance?asof=2026-01-01`,
      "/balances?acount_id=x",
      `/transactions?acount_id=${account}`,
      `/transactions/${transaction}?expand=entries`,
      `/accounts/${account}/holds?status=pending`,
      "/events?cursor=x",
    ]) {
      const parameter = new URL(path, "http://x").searchParams.keys().next().value;
      const answer = await client.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatchObject({
        statusCode: 400,
        error: "BAD_REQUEST",
        issues: [{ path: parameter, message: expect.stringMatching(/unknown/i) }],
      });
    }
  });
});

describe("cursor pages", () => {
  it("page transactions while others post: no row twice, none skipped of those there at the start", async () => {
    const tag = unique();
    const [cash, sales] = [await client.account(), await client.account("USD", "income")];
    const metadata = { run: tag };
    const before: string[] = [];
    for (let i = 0; i < 23; i++) {
      before.push(
        await post(
          [
            [cash, i + 1],
            [sales, -(i + 1)],
          ],
          { metadata },
        ),
      );
    }
    const seen = await everyPage(`/transactions?metadata[run]=${tag}&limit=5`, () =>
      post(
        [
          [cash, 1],
          [sales, -1],
        ],
        { metadata },
      ),
    );
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...before].reverse());
  });

  it("page an account's entries by cursor while others post, as offset pages would before any post", async () => {
    const [cash, sales] = [await client.account(), await client.account("USD", "income")];
    for (let i = 0; i < 17; i++) {
      await post([
        [cash, i + 1],
        [sales, -(i + 1)],
      ]);
    }
    const byOffset = ids(await page(`/accounts/${cash}/entries?limit=200`));
    const first = await page(`/accounts/${cash}/entries?limit=4`);
    expect(first).toMatchObject({ limit: 4, offset: 0, next_cursor: expect.any(String) });
    const seen = await everyPage(`/accounts/${cash}/entries?limit=4`, () =>
      post(
        [
          [cash, 1],
          [sales, -1],
        ],
        { effective_date: "2020-01-01" }, // lands among the pages still to come, and was not there at the start
      ),
    );
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, byOffset.length)).toEqual(byOffset);
    // An offset page answers the cursor of its last entry too.
    const second = await page(`/accounts/${cash}/entries?limit=4&offset=4`);
    expect(ids(await page(`/accounts/${cash}/entries?limit=4&cursor=${second.next_cursor}`))).toEqual(
      byOffset.slice(8, 12),
    );
  });

  it("refuses offset with cursor, another list's cursor and a tampered one (400)", async () => {
    const [cash, other, sales] = [
      await client.account(),
      await client.account(),
      await client.account("USD", "income"),
    ];
    for (const account of [cash, other, cash]) {
      await post([
        [account, 1],
        [sales, -1],
      ]);
    }
    const { next_cursor: cursor } = await page(`/accounts/${cash}/entries?limit=1`);
    expect(cursor).toEqual(expect.any(String));
    const refused = async (path: string) => {
      const answer = await client.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body).toMatchObject({ statusCode: 400, error: "BAD_REQUEST" });
      return answer.body;
    };
    expect(await refused(`/accounts/${cash}/entries?offset=1&cursor=${cursor}`)).toMatchObject({
      issues: [{ path: "cursor", message: "send either offset or cursor, not both" }],
    });
    await refused(`/accounts/${other}/entries?cursor=${cursor}`);
    await refused(`/accounts/${cash}/holds?cursor=${cursor}`);
    await refused(`/transactions?cursor=${cursor}`);
    await refused(`/accounts?cursor=${cursor}`);
    await refused(`/events?after=${cursor}`);
    const decoded = Buffer.from(cursor!, "base64url").toString("utf8");
    const tampered = Buffer.from(decoded.replace(/[0-9]/, (d) => String((Number(d) + 1) % 10))).toString(
      "base64url",
    );
    expect(tampered).not.toBe(cursor);
    await refused(`/accounts/${cash}/entries?cursor=${tampered}`);
    await refused(`/accounts/${cash}/entries?cursor=${cursor!.slice(0, -2)}`);
  });

  type Position = [string, ...string[]];
  it("answers a made-up cursor past its position's range 400, and one at the range's edge a page", async () => {
    const account = await client.account();
    // Made as the server makes them (their check included): only the position is out of place.
    const made = (list: string, position: Position) =>
      // A tuple of any length: zod's types know only fixed ones.
      listCursor(list, z.string(), ...position.slice(1).map(() => z.string())).encode(
        null,
        position as never,
      );
    const cases: [path: string, list: string, refused: Position, accepted: Position][] = [
      ["/accounts?cursor=", "accounts", ["9223372036854775808"], ["9223372036854775807"]],
      ["/events?after=", "events", ["0", "9223372036854775808"], ["0", "9223372036854775807"]],
      ["/events?after=", "events", ["18446744073709551616", "0"], ["18446744073709551615", "0"]],
      [
        `/accounts/${account}/entries?cursor=`,
        `entries/${account}`,
        ["0000-01-01", "2020-01-01T00:00:00Z", account],
        ["0001-01-01", "0001-01-01T00:00:00Z", account],
      ],
      [
        `/accounts/${account}/holds?cursor=`,
        `holds/${account}`,
        ["0000-12-31T00:00:00Z", account],
        ["0001-01-01T00:00:00Z", account],
      ],
      [
        "/transactions?cursor=",
        "transactions",
        ["0000-06-01T00:00:00Z", account],
        ["0001-01-01T00:00:00Z", account],
      ],
    ];
    for (const [path, list, refused, accepted] of cases) {
      const answer = await client.get(path + made(list, refused));
      expect([answer.status, answer.body.error], `${path} ${refused}`).toEqual([400, "BAD_REQUEST"]);
      expect((await client.get(path + made(list, accepted))).status, `${path} ${accepted}`).toBe(200);
    }
  });
});

describe("GET /accounts", () => {
  it("pages in creation order (100 by default) and filters by type, currency and metadata", async () => {
    const tag = unique();
    const made: string[] = [];
    for (const [type, currency] of [
      ["asset", "EUR"],
      ["liability", "EUR"],
      ["asset", "JPY"],
      ["asset", "EUR"],
    ] as const) {
      const created = await client.post("/accounts", { name: tag, type, currency, metadata: { group: tag } });
      made.push(created.body.id as string);
    }
    const mine = `/accounts?metadata[group]=${tag}`;
    expect(ids(await page(mine))).toEqual(made);
    expect(ids(await page(`${mine}&type=asset`))).toEqual([made[0], made[2], made[3]]);
    expect(ids(await page(`${mine}&type=asset&currency=EUR`))).toEqual([made[0], made[3]]);
    expect(await everyPage(`${mine}&limit=1`)).toEqual(made);

    for (let i = 0; i < 101; i++) await client.account();
    const first = await page("/accounts");
    expect(first.items).toHaveLength(100);
    expect(first.next_cursor).toEqual(expect.any(String));
    const all = await everyPage("/accounts?limit=1000");
    expect(new Set(all).size).toBe(all.length);
    expect(all.slice(0, 100)).toEqual(ids(first));
    for (const query of ["limit=1001", "type=equity", "currency=usd", "cursor=abc"]) {
      expect((await client.get(`/accounts?${query}`)).status, query).toBe(400);
    }
  });
});

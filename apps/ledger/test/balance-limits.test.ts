import { AwsClient } from "aws4fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readResult } from "../../../test/http-client.ts";
import { ledgerClient, type LedgerClient } from "../../../test/ledger-client.ts";
import {
  FULL_KEY,
  READ_ONLY_KEY,
  REGION,
  startLedgerServer,
  type LedgerServer,
} from "../../../test/ledger-server.ts";
import { ledgerWallets } from "../../../test/ledger-wallets.ts";

/** Two ledger instances on one database: bounds must hold across both. */
let first: LedgerServer;
let second: LedgerServer;
let client: LedgerClient;

beforeAll(async () => {
  [first, second] = await Promise.all([startLedgerServer(), startLedgerServer()]);
  client = ledgerClient(first.url);
});

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
});

const { key, account, move, balanceOf, fundedWallet, raceSpends } = ledgerWallets(() => client);

describe("balance limits", () => {
  it("takes min_balance and max_balance on a new account and answers them; a new account's bounds must hold 0", async () => {
    const created = await client.post("/accounts", {
      name: "wallet",
      type: "liability",
      currency: "USD",
      max_balance: 0,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      min_balance: null,
      max_balance: 0,
      updated_at: created.body.created_at,
    });
    const plain = await client.post("/accounts", { name: "plain", type: "asset", currency: "USD" });
    expect(plain.body).toMatchObject({ min_balance: null, max_balance: null });

    for (const [bounds, path] of [
      [{ min_balance: 1 }, "min_balance"],
      [{ max_balance: -5 }, "max_balance"],
      [{ max_balance: 1.5 }, "max_balance"],
      [{ min_balance: "0" }, "min_balance"],
      [{ max_balance: 2 ** 53 }, "max_balance"],
    ] as const) {
      const refused = await client.post("/accounts", {
        name: "x",
        type: "asset",
        currency: "USD",
        ...bounds,
      });
      expect(refused.status, JSON.stringify(bounds)).toBe(400);
      expect((refused.body.issues as { path: string }[]).map((i) => i.path)).toEqual([path]);
    }
  });

  it("refuses a spend past max_balance with 422 BALANCE_LIMIT_EXCEEDED naming account, bound and sum, and leaves the key unused", async () => {
    const { wallet, shop } = await fundedWallet(100);
    expect(
      (
        await client.post(
          "/transactions",
          move([
            [wallet, 30],
            [shop, -30],
          ]),
        )
      ).status,
    ).toBe(201);

    const spend = key();
    const refused = await client.post(
      "/transactions",
      move(
        [
          [wallet, 80],
          [shop, -80],
        ],
        spend,
      ),
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      statusCode: 422,
      error: "BALANCE_LIMIT_EXCEEDED",
      message: `a balance limit would be passed: account ${wallet} would reach 10, past its max_balance 0`,
      issues: [{ path: "entries.0", message: `account ${wallet} would reach 10, past its max_balance 0` }],
    });
    expect(await balanceOf(wallet)).toBe(-70);

    // The key is unused: the same key may post what fits.
    expect(
      (
        await client.post(
          "/transactions",
          move(
            [
              [wallet, 70],
              [shop, -70],
            ],
            spend,
          ),
        )
      ).status,
    ).toBe(201);
    expect(await balanceOf(wallet)).toBe(0);
    expect(
      (
        await client.post(
          "/transactions",
          move([
            [wallet, 1],
            [shop, -1],
          ]),
        )
      ).status,
    ).toBe(422);
    // Moving away from the bound is never refused.
    expect(
      (
        await client.post(
          "/transactions",
          move([
            [shop, 5],
            [wallet, -5],
          ]),
        )
      ).status,
    ).toBe(201);
  });

  it("refuses what takes an asset below its min_balance, and allows an overdraft down to a negative one", async () => {
    const [reserve, expenses] = [
      await account({ type: "asset", min_balance: -50 }),
      await account({ type: "expense" }),
    ];
    expect(
      (
        await client.post(
          "/transactions",
          move([
            [expenses, 50],
            [reserve, -50],
          ]),
        )
      ).status,
    ).toBe(201);
    const refused = await client.post(
      "/transactions",
      move([
        [expenses, 1],
        [reserve, -1],
      ]),
    );
    expect(refused.status).toBe(422);
    expect((refused.body.issues as { message: string }[])[0]!.message).toBe(
      `account ${reserve} would reach -51, past its min_balance -50`,
    );
  });

  it("PATCH changes the name and bounds for later posts; a bound the balance breaks lets posts back toward it through", async () => {
    const { wallet, shop } = await fundedWallet(100);
    const before = (await client.get(`/accounts/${wallet}`)).body;
    const patched = await client.send("PATCH", `/accounts/${wallet}`, { name: "renamed", max_balance: -150 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: wallet, name: "renamed", max_balance: -150, min_balance: null });
    expect(patched.body.updated_at).not.toBe(before.updated_at);
    expect((await client.get(`/accounts/${wallet}`)).body).toEqual(patched.body);

    // The balance, -100, is above the new max of -150: spending more is refused, funding is not.
    expect(
      (
        await client.post(
          "/transactions",
          move([
            [wallet, 1],
            [shop, -1],
          ]),
        )
      ).status,
    ).toBe(422);
    expect(
      (
        await client.post(
          "/transactions",
          move([
            [shop, 20],
            [wallet, -20],
          ]),
        )
      ).status,
    ).toBe(201);

    const cleared = await client.send("PATCH", `/accounts/${wallet}`, { max_balance: null });
    expect(cleared.body).toMatchObject({ name: "renamed", max_balance: null });
    expect(
      (
        await client.post(
          "/transactions",
          move([
            [wallet, 500],
            [shop, -500],
          ]),
        )
      ).status,
    ).toBe(201);

    const reserve = await client.send("PATCH", `/accounts/${wallet}`, {
      min_balance: 100,
      max_balance: 1_000,
    });
    expect(reserve.body).toMatchObject({ min_balance: 100, max_balance: 1_000 });
    const crossed = await client.send("PATCH", `/accounts/${wallet}`, { max_balance: 50 });
    expect(crossed.status).toBe(400);
    expect(crossed.body.issues).toEqual([{ path: "min_balance", message: "must be at most max_balance" }]);
    for (const body of [{}, { min_balance: 10, max_balance: 5 }, { name: "" }, { unknown: 1 }]) {
      expect((await client.send("PATCH", `/accounts/${wallet}`, body)).status, JSON.stringify(body)).toBe(
        400,
      );
    }
    expect((await client.send("PATCH", `/accounts/${crypto.randomUUID()}`, { name: "x" })).status).toBe(404);
    const reader = ledgerClient(first.url, READ_ONLY_KEY);
    expect((await reader.send("PATCH", `/accounts/${wallet}`, { name: "x" })).status).toBe(403);
  });

  it("PATCH with If-Match writes only over the version read: a change made meanwhile, or a copy of an older PATCH sent again, is a 412", async () => {
    const wallet = await account({ type: "liability", max_balance: 0 });
    const read = await client.get(`/accounts/${wallet}`);
    const readTag = read.headers.get("etag");
    expect(readTag).toBe(`"${String(read.body.updated_at)}"`);

    // A PATCH signed once, as a client sends it; sent again later, as someone who copied it would.
    const aws = new AwsClient({ ...FULL_KEY, region: REGION, service: "execute-api", retries: 0 });
    const raise = await aws.sign(`${first.url}/accounts/${wallet}`, {
      method: "PATCH",
      headers: { "content-type": "application/json", "if-match": readTag! },
      body: JSON.stringify({ max_balance: 100 }),
    });
    const raised = await readResult<Record<string, unknown>>(await fetch(raise.clone()));
    expect(raised.status, raised.text).toBe(200);
    const raisedTag = raised.headers.get("etag");
    expect(raisedTag).toBe(`"${String(raised.body.updated_at)}"`);
    expect(raisedTag).not.toBe(readTag);

    const lowered = await client.send(
      "PATCH",
      `/accounts/${wallet}`,
      { max_balance: 0 },
      "application/json",
      {
        "if-match": raisedTag!,
      },
    );
    expect(lowered.status, lowered.text).toBe(200);
    const copied = await readResult<Record<string, unknown>>(await fetch(raise.clone()));
    expect([copied.status, copied.body.error]).toEqual([412, "PRECONDITION_FAILED"]);
    expect(copied.body.message).toContain(String(lowered.body.updated_at));
    expect((await client.get(`/accounts/${wallet}`)).body).toEqual(lowered.body);

    // Two writers over one version: one writes, the other is told to read again.
    const current = `"${String(lowered.body.updated_at)}"`;
    const racing = await Promise.all(
      [10, 20].map((max_balance) =>
        ledgerClient(second.url).send("PATCH", `/accounts/${wallet}`, { max_balance }, "application/json", {
          "if-match": current,
        }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 412]);

    // A 404 before a 412; a value that is not an entity tag, or a write that checks none, is a 400.
    const unknown = await client.send(
      "PATCH",
      `/accounts/${crypto.randomUUID()}`,
      { name: "x" },
      "application/json",
      {
        "if-match": current,
      },
    );
    expect(unknown.status).toBe(404);
    const malformed = await client.send("PATCH", `/accounts/${wallet}`, { name: "x" }, "application/json", {
      "if-match": "not-a-tag",
    });
    expect(malformed.status).toBe(400);
    const [cash, sales] = [await client.account(), await client.account("USD", "income")];
    const post = move([
      [cash, 5],
      [sales, -5],
    ]);
    const unchecked = await client.send("POST", "/transactions", post, "application/json", {
      "if-match": current,
    });
    expect([unchecked.status, unchecked.body.message]).toEqual([
      400,
      "this write does not check If-Match, If-None-Match or If-Unmodified-Since; send it without them",
    ]);
    expect(await balanceOf(cash)).toBe(0);
  });

  it("refuses a reversal that would pass a bound", async () => {
    const [wallet, cash, shop] = [
      await account({ type: "liability", max_balance: 0 }),
      await account({ type: "asset" }),
      await account({ type: "income" }),
    ];
    const funding = await client.post(
      "/transactions",
      move([
        [cash, 100],
        [wallet, -100],
      ]),
    );
    expect(
      (
        await client.post(
          "/transactions",
          move([
            [wallet, 100],
            [shop, -100],
          ]),
        )
      ).status,
    ).toBe(201);
    const reversal = await client.post(`/transactions/${String(funding.body.id)}/reversal`, {
      idempotency_key: key(),
    });
    expect(reversal.status).toBe(422);
    expect(reversal.body).toMatchObject({ error: "BALANCE_LIMIT_EXCEEDED" });
    expect(await balanceOf(wallet)).toBe(0);
  });

  it("answers a second reversal of a top-up with the 409 naming the first, not the bound it would pass", async () => {
    // The bounds were checked before the reversal there is: the refund worker that retried with
    // a new key was told 422 BALANCE_LIMIT_EXCEEDED, as if its refund had not been made.
    const [wallet, cash] = [
      await account({ type: "liability", max_balance: 0 }),
      await account({ type: "asset" }),
    ];
    const topUp = await client.post(
      "/transactions",
      move([
        [cash, 100],
        [wallet, -100],
      ]),
    );
    const refund = await client.post(`/transactions/${String(topUp.body.id)}/reversal`, {
      idempotency_key: key(),
    });
    expect(refund.status, refund.text).toBe(201);
    for (const server of [first, second]) {
      const again = await ledgerClient(server.url).post(`/transactions/${String(topUp.body.id)}/reversal`, {
        idempotency_key: key(),
      });
      expect([again.status, again.body.error, again.body.message]).toEqual([
        409,
        "CONFLICT",
        `transaction ${String(topUp.body.id)} has already been reversed by transaction ${String(refund.body.id)}`,
      ]);
    }
    expect(await balanceOf(wallet)).toBe(0);
  });

  it("checks batch items in order: alone when not atomic, all or none when atomic", async () => {
    const { wallet, shop } = await fundedWallet(100);
    const spend = (amount: number) =>
      move([
        [wallet, amount],
        [shop, -amount],
      ]);
    const each = await client.post<{ results: { status: number; error?: { error: string } }[] }>(
      "/transactions/batch",
      { transactions: [spend(60), spend(60), spend(40)] },
    );
    expect(each.body.results.map((r) => r.status)).toEqual([201, 422, 201]);
    // The single post's refusal, each account, bound and sum in `issues`.
    const past = `account ${wallet} would reach 20, past its max_balance 0`;
    expect(each.body.results[1]).toEqual({
      status: 422,
      error: {
        error: "BALANCE_LIMIT_EXCEEDED",
        message: `a balance limit would be passed: ${past}`,
        issues: [{ path: "entries.0", message: past }],
      },
    });
    expect(await balanceOf(wallet)).toBe(0);

    expect(
      (
        await client.post(
          "/transactions",
          move([
            [shop, 50],
            [wallet, -50],
          ]),
        )
      ).status,
    ).toBe(201);
    const atomic = await client.post<{
      error: string;
      results: { status: number; error?: { error: string } }[];
    }>("/transactions/batch", { atomic: true, transactions: [spend(30), spend(30)] });
    expect(atomic.status).toBe(422);
    expect(atomic.body.error).toBe("BATCH_REJECTED");
    expect(atomic.body.results.map((r) => r.error?.error)).toEqual([
      "BATCH_REJECTED",
      "BALANCE_LIMIT_EXCEEDED",
    ]);
    expect(atomic.body.results[1]!.error).toMatchObject({
      issues: [{ path: "entries.0", message: `account ${wallet} would reach 10, past its max_balance 0` }],
    });
    expect(await balanceOf(wallet)).toBe(-50);
  });

  it("tries a refused key's next item in its place in a batch that is not atomic: the items after it come after its spend", async () => {
    const { wallet, shop } = await fundedWallet(100);
    const spend = (amount: number, idempotencyKey: string) =>
      move(
        [
          [wallet, amount],
          [shop, -amount],
        ],
        idempotencyKey,
      );
    const [again, other] = [`again-${crypto.randomUUID()}`, `other-${crypto.randomUUID()}`];
    const batch = await client.post<{ results: { status: number; error?: { error: string } }[] }>(
      "/transactions/batch",
      { transactions: [spend(150, again), spend(60, again), spend(60, other), spend(60, again)] },
    );
    expect(batch.body.results.map((r) => [r.status, r.error?.error])).toEqual([
      [422, "BALANCE_LIMIT_EXCEEDED"],
      [201, undefined],
      [422, "BALANCE_LIMIT_EXCEEDED"],
      [200, undefined],
    ]);
    expect(await balanceOf(wallet)).toBe(-40);
  });

  it("writes a batch whose top-up comes before its spend in the request, whatever order their keys sort in", async () => {
    for (const atomic of [false, true]) {
      const { wallet, cash, shop } = await fundedWallet(1);
      const topUp = move(
        [
          [cash, 100],
          [wallet, -100],
        ],
        `z-top-up-${crypto.randomUUID()}`,
      );
      const spend = move(
        [
          [wallet, 30],
          [shop, -30],
        ],
        `a-spend-${crypto.randomUUID()}`,
      );
      const batch = await client.post<{ results: { status: number }[] }>("/transactions/batch", {
        atomic,
        transactions: [topUp, spend],
      });
      expect([batch.status, batch.body.results?.map((r) => r.status)], `atomic: ${atomic}`).toEqual([
        200,
        [201, 201],
      ]);
      expect(await balanceOf(wallet)).toBe(-71);
    }
  });

  it("lets exactly as many of 64 racing spends through two instances as the wallet holds, five rounds over", async () => {
    for (let round = 0; round < 5; round += 1) {
      const { wallet, statuses } = await raceSpends([first.url, second.url], (entries) => move(entries));
      expect(statuses, `round ${round}`).toEqual([...Array(10).fill(201), ...Array(54).fill(422)]);
      expect(await balanceOf(wallet), `round ${round}`).toBe(0);
    }
  });
});

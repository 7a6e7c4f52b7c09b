import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, type Database } from "@app/db";
import { verifyLedger } from "@app/ledger";
import { ledgerClient, type LedgerClient } from "../../../test/ledger-client.ts";
import { startLedgerServer, type LedgerServer } from "../../../test/ledger-server.ts";
import { ledgerWallets } from "../../../test/ledger-wallets.ts";
import { untilBlockedBy, untilQueuedBehind } from "../../../test/lock-waits.ts";
import type { NewTransaction } from "../../../packages/ledger/src/store/insert-transactions.ts";
import { postChecked } from "../../../packages/ledger/src/store/post-checked.ts";

/** Two ledger instances on one database: a hold must hold across both. */
let first: LedgerServer;
let second: LedgerServer;
let client: LedgerClient;
let db: Database;

beforeAll(async () => {
  [first, second] = await Promise.all([startLedgerServer(), startLedgerServer()]);
  client = ledgerClient(first.url);
  db = createDatabase({ connectionString: inject("databaseUrl") });
});

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop(), db?.$disconnect()]);
});

const { key, move, balanceOf, fundedWallet, raceSpends } = ledgerWallets(() => client);

/** A hold's body: these amounts reserved for `seconds`. */
const hold = (entries: [string, number][], seconds = 600, idempotency_key = key()) => ({
  ...move(entries, idempotency_key),
  hold: { expires_in_seconds: seconds },
});

const IDS_AND_TIMES =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d\d-\d\dT[\d:.]+Z/g;

const pendingOf = async (id: string) => {
  const { pending_debits, pending_credits } = (await client.get(`/accounts/${id}/balance`)).body;
  return { pending_debits, pending_credits };
};

/** A post as the store takes it (postChecked), of these amounts, posting hold `holdId` if given, under a new key. */
const newPost = (entries: [string, number][], holdId: string | null): NewTransaction => ({
  principal: "test-full",
  idempotencyKey: key(),
  requestHash: "test",
  description: null,
  effectiveDate: new Date().toISOString().slice(0, 10),
  reversesTransactionId: null,
  holdSeconds: null,
  holdId,
  metadata: {},
  entries: entries.map(([account_id, amount]) => ({ account_id, amount })),
});

async function placeHold(entries: [string, number][], seconds = 600): Promise<string> {
  const placed = await client.post("/transactions", hold(entries, seconds));
  expect(placed.status, placed.text).toBe(201);
  return placed.body.id as string;
}

describe("holds", () => {
  it("reserves a hold's amounts: pending, in no balance or entries list, counted toward the bounds", async () => {
    const { wallet, shop } = await fundedWallet(100);
    const placed = await client.post(
      "/transactions",
      hold([
        [wallet, 60],
        [shop, -60],
      ]),
    );
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ status: "pending", hold_id: null });
    const expiresIn =
      Date.parse(placed.body.expires_at as string) - Date.parse(placed.body.created_at as string);
    expect(expiresIn).toBe(600_000);
    expect((await client.get(`/transactions/${placed.body.id}`)).body).toEqual(placed.body);

    expect(await balanceOf(wallet)).toBe(-100);
    expect(await pendingOf(wallet)).toEqual({ pending_debits: 60, pending_credits: 0 });
    expect(await pendingOf(shop)).toEqual({ pending_debits: 0, pending_credits: -60 });
    const entries = (await client.get(`/accounts/${wallet}/entries`)).body.items as {
      transaction_id: string;
    }[];
    expect(entries.map((e) => e.transaction_id)).not.toContain(placed.body.id);

    // 100 held by 60: a spend of 50 would take the wallet past 0 once the hold is posted.
    const refusedKey = key();
    const refused = await client.post(
      "/transactions",
      move(
        [
          [wallet, 50],
          [shop, -50],
        ],
        refusedKey,
      ),
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      error: "BALANCE_LIMIT_EXCEEDED",
      issues: [{ path: "entries.0", message: `account ${wallet} would reach 10, past its max_balance 0` }],
    });
    // So would a second hold, and its key stays unused.
    const refusedHold = await client.post(
      "/transactions",
      hold(
        [
          [wallet, 50],
          [shop, -50],
        ],
        600,
        refusedKey,
      ),
    );
    expect(refusedHold.status).toBe(422);
    const fits = await client.post(
      "/transactions",
      move(
        [
          [wallet, 40],
          [shop, -40],
        ],
        refusedKey,
      ),
    );
    expect(fits.status).toBe(201);
  });

  it("answers the room each bound leaves one post, holds and posts dated later counted; a post of all of it passes, one more does not", async () => {
    const { wallet, cash, shop } = await fundedWallet(100);
    const roomOf = async (id: string) => {
      const { room_to_debit, room_to_credit } = (await client.get(`/accounts/${id}/balance`)).body;
      return { room_to_debit, room_to_credit };
    };
    expect(await roomOf(wallet)).toEqual({ room_to_debit: 100, room_to_credit: null });
    expect(await roomOf(cash)).toEqual({ room_to_debit: null, room_to_credit: null });

    await placeHold([
      [wallet, 30],
      [shop, -30],
    ]);
    // Dated next year: not in today's balance, but in what the bounds count.
    const later = await client.post("/transactions", {
      ...move([
        [wallet, 20],
        [shop, -20],
      ]),
      effective_date: `${new Date().getUTCFullYear() + 1}-01-01`,
    });
    expect(later.status, later.text).toBe(201);
    expect((await client.get(`/accounts/${wallet}/balance`)).body.balance).toBe(-100);
    expect(await roomOf(wallet)).toEqual({ room_to_debit: 50, room_to_credit: null });

    const spend = (amount: number) =>
      client.post(
        "/transactions",
        move([
          [wallet, amount],
          [shop, -amount],
        ]),
      );
    expect((await spend(51)).status).toBe(422);
    expect((await spend(50)).status).toBe(201);
    expect(await roomOf(wallet)).toEqual({ room_to_debit: 0, room_to_credit: null });
    expect((await spend(1)).status).toBe(422);

    // An asset that may not go below 0, holding 80 of which a hold takes 25: 55 may still be credited.
    const { wallet: till } = await fundedWallet(-80, { type: "asset", min_balance: 0 });
    await placeHold([
      [till, -25],
      [shop, 25],
    ]);
    expect(await roomOf(till)).toEqual({ room_to_debit: null, room_to_credit: 55 });
  });

  it("posts a hold in full, or in part releasing the rest; a capture beyond the hold is refused", async () => {
    const { wallet, shop } = await fundedWallet(100);
    const full = await placeHold([
      [wallet, 30],
      [shop, -30],
    ]);
    const posted = await client.post(`/transactions/${full}/post`, { idempotency_key: key() });
    expect(posted.status).toBe(201);
    expect(posted.headers.get("location")).toBe(`/transactions/${posted.body.id}`);
    expect(posted.body).toMatchObject({ status: "posted", hold_id: full, expires_at: null });
    expect((posted.body.entries as { amount: number }[]).map((e) => e.amount)).toEqual([30, -30]);
    expect((await client.get(`/transactions/${posted.body.id}`)).body).toEqual(posted.body);
    expect((await client.get(`/transactions/${full}`)).body.status).toBe("posted");
    expect(await balanceOf(wallet)).toBe(-70);

    const partial = await placeHold([
      [wallet, 60],
      [shop, -60],
    ]);
    const tooMuchKey = key();
    const tooMuch = await client.post(`/transactions/${partial}/post`, {
      idempotency_key: tooMuchKey,
      entries: [
        { account_id: wallet, amount: 61 },
        { account_id: shop, amount: -61 },
      ],
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toMatchObject({
      error: "INVALID_CAPTURE",
      issues: [
        { path: "entries.0", message: `account ${wallet} is held 60: 61 is more` },
        { path: "entries.1", message: `account ${shop} is held -60: -61 is more` },
      ],
    });
    for (const entries of [
      [
        { account_id: wallet, amount: -10 },
        { account_id: shop, amount: 10 },
      ],
      [
        { account_id: wallet, amount: 10 },
        { account_id: crypto.randomUUID(), amount: -10 },
      ],
    ]) {
      const outside = await client.post(`/transactions/${partial}/post`, { idempotency_key: key(), entries });
      expect(outside.status, outside.text).toBe(422);
      expect(outside.body.error).toBe("INVALID_CAPTURE");
    }
    const otherSign = await client.post(`/transactions/${partial}/post`, {
      idempotency_key: key(),
      entries: [
        { account_id: wallet, amount: -10 },
        { account_id: shop, amount: 10 },
      ],
    });
    expect(otherSign.body.issues).toEqual([
      {
        path: "entries.0",
        message: `account ${wallet} is held 60: a capture there must have the same sign, not -10`,
      },
      {
        path: "entries.1",
        message: `account ${shop} is held -60: a capture there must have the same sign, not 10`,
      },
    ]);
    const unbalanced = await client.post(`/transactions/${partial}/post`, {
      idempotency_key: key(),
      entries: [
        { account_id: wallet, amount: 20 },
        { account_id: shop, amount: -10 },
      ],
    });
    expect(unbalanced.body.error).toBe("UNBALANCED_TRANSACTION");

    // The refused captures left the key unused and the hold pending.
    const captured = await client.post(`/transactions/${partial}/post`, {
      idempotency_key: tooMuchKey,
      entries: [
        { account_id: wallet, amount: 25 },
        { account_id: shop, amount: -25 },
      ],
    });
    expect(captured.status, captured.text).toBe(201);
    expect(await balanceOf(wallet)).toBe(-45);
    // The other 35 are released: the wallet's 45 can all be spent.
    expect(await pendingOf(wallet)).toEqual({ pending_debits: 0, pending_credits: 0 });
    const rest = await client.post(
      "/transactions",
      move([
        [wallet, 45],
        [shop, -45],
      ]),
    );
    expect(rest.status).toBe(201);
    expect(await balanceOf(wallet)).toBe(0);
  });

  it("is resolved once: replays answer the first post or void, other attempts 409 naming why", async () => {
    const { wallet, shop } = await fundedWallet(100);
    const entries: [string, number][] = [
      [wallet, 10],
      [shop, -10],
    ];
    const posted = await placeHold(entries);
    const post = { idempotency_key: key(), description: "captured" };
    const first = await client.post(`/transactions/${posted}/post`, post);
    expect(first.status).toBe(201);
    const again = await ledgerClient(second.url).post(`/transactions/${posted}/post`, post);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    // Each names the post, for a caller whose first answer was lost and who tried again with a new key.
    const postedBy = `hold ${posted} was posted by transaction ${first.body.id as string}`;
    const otherKey = await ledgerClient(second.url).post(`/transactions/${posted.toUpperCase()}/post`, {
      idempotency_key: key(),
    });
    expect([otherKey.status, otherKey.body.error, otherKey.body.message]).toEqual([
      409,
      "HOLD_ALREADY_POSTED",
      postedBy,
    ]);
    const voidAfterPost = await client.post(`/transactions/${posted}/void`, { idempotency_key: key() });
    expect([voidAfterPost.status, voidAfterPost.body.error, voidAfterPost.body.message]).toEqual([
      409,
      "HOLD_ALREADY_POSTED",
      postedBy,
    ]);

    const voided = await placeHold(entries);
    const voidKey = key();
    const firstVoid = await client.post(`/transactions/${voided}/void`, { idempotency_key: voidKey });
    expect(firstVoid.status).toBe(200);
    expect(firstVoid.body).toMatchObject({ id: voided, status: "voided" });
    expect((await client.get(`/transactions/${voided}`)).body).toEqual(firstVoid.body);
    const replay = await client.post(`/transactions/${voided}/void`, { idempotency_key: voidKey });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(firstVoid.text);
    const secondVoid = await client.post(`/transactions/${voided}/void`, { idempotency_key: key() });
    expect([secondVoid.status, secondVoid.body.error]).toEqual([409, "HOLD_VOIDED"]);
    const postAfterVoid = await client.post(`/transactions/${voided}/post`, { idempotency_key: key() });
    expect([postAfterVoid.status, postAfterVoid.body.error]).toEqual([409, "HOLD_VOIDED"]);
    expect(await pendingOf(wallet)).toEqual({ pending_debits: 0, pending_credits: 0 });
    expect(await balanceOf(wallet)).toBe(-90);

    // A hold is not reversible; its post is, like any transaction.
    const reversal = await client.post(`/transactions/${voided}/reversal`, { idempotency_key: key() });
    expect([reversal.status, reversal.body.error]).toEqual([409, "HOLD_NOT_REVERSIBLE"]);
    const reversed = await client.post(`/transactions/${first.body.id}/reversal`, { idempotency_key: key() });
    expect(reversed.status).toBe(201);
    expect(await balanceOf(wallet)).toBe(-100);

    const notAHold = await client.post(`/transactions/${reversed.body.id}/void`, { idempotency_key: key() });
    expect([notAHold.status, notAHold.body.error]).toEqual([409, "NOT_A_HOLD"]);
    const unknown = await client.post(`/transactions/${crypto.randomUUID()}/post`, {
      idempotency_key: key(),
    });
    expect(unknown.status).toBe(404);
  });

  it("refuses a hold's time outside 1 s to 30 days, each with what is wrong with it", async () => {
    const { wallet, shop } = await fundedWallet(100);
    for (const [seconds, message] of [
      [0, "must be at least 1 second"],
      [-5, "must be at least 1 second"],
      [1.5, "must be a whole number of seconds"],
      [2_592_001, "must be at most 2592000 (30 days)"],
    ] as const) {
      const answer = await client.post(
        "/transactions",
        hold(
          [
            [wallet, 10],
            [shop, -10],
          ],
          seconds,
        ),
      );
      expect(answer.body.issues, String(seconds)).toEqual([{ path: "hold.expires_in_seconds", message }]);
    }
  });

  it("refuses a body id other than the path's on a post, void, reversal and account change, changing nothing", async () => {
    const { wallet, shop } = await fundedWallet(100);
    const entries: [string, number][] = [
      [wallet, 10],
      [shop, -10],
    ];
    const [meant, other] = [await placeHold(entries), await placeHold(entries)];
    const before = (await client.get(`/transactions/${meant}`)).text;
    for (const [path, body] of [
      [`/transactions/${meant}/post`, { id: other, idempotency_key: key() }],
      [`/transactions/${meant}/void`, { id: other, idempotency_key: key() }],
      [`/transactions/${meant}/reversal`, { id: 7, idempotency_key: key() }],
    ] as const) {
      const answer = await client.post(path, body);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatchObject({
        error: "BAD_REQUEST",
        issues: [{ path: "id", message: `must be the path's id (${meant}), or left out` }],
      });
    }
    const renamed = await client.send("PATCH", `/accounts/${wallet}`, { id: shop, name: "renamed" });
    expect([renamed.status, renamed.body.issues]).toEqual([400, [expect.objectContaining({ path: "id" })]]);
    expect((await client.get(`/accounts/${wallet}`)).body.name).not.toBe("renamed");
    expect((await client.get(`/transactions/${meant}`)).text).toBe(before);
    expect((await client.get(`/transactions/${other}`)).body.status).toBe("pending");

    // The path's own id, in any case, is no contradiction.
    const voided = await client.post(`/transactions/${meant}/void`, {
      id: meant.toUpperCase(),
      idempotency_key: key(),
    });
    expect([voided.status, voided.body.id]).toEqual([200, meant]);
  });

  it("answers a hold's own key with the answer that placed it, byte for byte, after it was voided or posted", async () => {
    const { wallet, shop } = await fundedWallet(100);
    for (const resolve of ["void", "post"]) {
      const body = hold([
        [wallet, 10],
        [shop, -10],
      ]);
      const placed = await client.post("/transactions", body);
      expect(placed.status).toBe(201);
      const id = placed.body.id as string;
      expect(
        (await client.post(`/transactions/${id}/${resolve}`, { idempotency_key: key() })).status,
      ).toBeLessThan(300);
      expect((await client.get(`/transactions/${id}`)).body.status).toBe(
        resolve === "void" ? "voided" : "posted",
      );
      const replay = await ledgerClient(second.url).post("/transactions", body);
      expect([replay.status, replay.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
      expect(replay.text, resolve).toBe(placed.text);
    }
  });

  it("answers a hold's post the same on the instance that wrote the hold (which keeps it) and on another", async () => {
    const { wallet, shop } = await fundedWallet(100);
    const held: [string, number][] = [
      [wallet, 10],
      [shop, -10],
    ];
    const plain = await client.post("/transactions", move(held));
    const reusedKey = plain.body.idempotency_key as string;
    const moreThanHeld = [
      { account_id: wallet, amount: 11 },
      { account_id: shop, amount: -11 },
    ];
    /** Each attempt on a hold of its own, as status, error, replay headers and body with the hold's id as "HOLD". */
    const attempts = async (to: LedgerClient) => {
      const attempt = async (body: object, voidFirst = false) => {
        const id = await placeHold(held);
        if (voidFirst)
          expect((await client.post(`/transactions/${id}/void`, { idempotency_key: key() })).status).toBe(
            200,
          );
        const answer = await to.post(`/transactions/${id}/post`, { idempotency_key: key(), ...body });
        const status = (await to.get(`/transactions/${id}`)).body.status as string;
        return [
          answer.status,
          answer.headers.get("idempotent-replayed"),
          answer.headers.get("idempotency-key-mismatch"),
          answer.text.replaceAll(id, "HOLD"),
          status,
        ];
      };
      return [
        // A key already used for another transaction: that transaction, flagged; the hold still pending.
        await attempt({ idempotency_key: reusedKey }),
        // More than the hold: a 422 naming each entry.
        await attempt({ entries: moreThanHeld }),
        // Voided first: a 409 naming why.
        await attempt({}, true),
        // A used key or a voided hold comes before the 422 of a capture of more than the hold.
        await attempt({ idempotency_key: reusedKey, entries: moreThanHeld }),
        await attempt({ entries: moreThanHeld }, true),
        // In full, with the hold's description.
        (await attempt({})).map((part) =>
          typeof part === "string" ? part.replace(IDS_AND_TIMES, "ID") : part,
        ),
      ];
    };
    const onTheWriter = await attempts(client);
    expect(onTheWriter.map((answer) => [answer[0], answer[4]])).toEqual([
      [200, "pending"],
      [422, "pending"],
      [409, "voided"],
      [200, "pending"],
      [409, "voided"],
      [201, "posted"],
    ]);
    expect(onTheWriter[0]!.slice(1, 3)).toEqual(["true", "true"]);
    expect(onTheWriter[3]!.slice(1, 3)).toEqual(["true", "true"]);
    expect(onTheWriter[4]![3]).toContain("HOLD_VOIDED");
    expect(onTheWriter[1]![3]).toContain("INVALID_CAPTURE");
    expect(onTheWriter[2]![3]).toContain("HOLD_VOIDED");
    expect(await attempts(ledgerClient(second.url))).toEqual(onTheWriter);
  });

  it("stops counting a hold at expires_at: it reads expired, and post and void answer 409 HOLD_EXPIRED", async () => {
    const { wallet, shop } = await fundedWallet(100);
    const expiring = await placeHold(
      [
        [wallet, 100],
        [shop, -100],
      ],
      2,
    );
    const { expires_at } = (await client.get(`/transactions/${expiring}`)).body as { expires_at: string };
    const spend = move([
      [wallet, 100],
      [shop, -100],
    ]);
    const whileHeld = await client.post("/transactions", spend);
    expect(whileHeld.status).toBe(422);
    expect((await client.get(`/accounts/${wallet}/holds`)).body.items).toHaveLength(1);

    await sleep(Date.parse(expires_at) - Date.now() + 100);
    expect((await client.get(`/transactions/${expiring}`)).body.status).toBe("expired");
    expect(await pendingOf(wallet)).toEqual({ pending_debits: 0, pending_credits: 0 });
    expect((await client.get(`/accounts/${wallet}/holds`)).body.items).toEqual([]);
    for (const action of ["post", "void"]) {
      const late = await client.post(`/transactions/${expiring}/${action}`, { idempotency_key: key() });
      expect([late.status, late.body.error], action).toEqual([409, "HOLD_EXPIRED"]);
    }
    const afterwards = await client.post("/transactions", spend);
    expect(afterwards.status).toBe(201);
    expect(await balanceOf(wallet)).toBe(0);
  });

  it.each([
    ["post", -40],
    ["void", -100],
  ])(
    "releases a hold once when its %s, begun before expires_at, commits after it: the room is what the wallet holds",
    async (action, left) => {
      const { wallet, shop } = await fundedWallet(100);
      const expiring = await placeHold(
        [
          [wallet, 60],
          [shop, -60],
        ],
        2,
      );
      const { expires_at } = (await client.get(`/transactions/${expiring}`)).body as { expires_at: string };
      // It waits for the wallet's lock, held here, from before expires_at to after it.
      const session = new pg.Client({ connectionString: inject("databaseUrl") });
      await session.connect();
      try {
        await session.query("BEGIN");
        await session.query("SELECT 1 FROM ledger.accounts WHERE id = $1 FOR UPDATE", [wallet]);
        const resolved = client.post(`/transactions/${expiring}/${action}`, { idempotency_key: key() });
        await untilBlockedBy(session);
        expect(Date.now()).toBeLessThan(Date.parse(expires_at));
        await sleep(Date.parse(expires_at) - Date.now() + 300);
        await session.query("ROLLBACK");
        expect((await resolved).status).toBe(action === "post" ? 201 : 200);
      } finally {
        await session.end();
      }

      const balance = (await client.get(`/accounts/${wallet}/balance`)).body;
      expect(balance).toMatchObject({ balance: left, pending_debits: 0, room_to_debit: -left });
      const overdraft = await client.post(
        "/transactions",
        move([
          [wallet, 1 - left],
          [shop, left - 1],
        ]),
      );
      expect([overdraft.status, overdraft.body.error]).toEqual([422, "BALANCE_LIMIT_EXCEEDED"]);
      expect(await verifyLedger(db)).toEqual([]);
    },
  );

  it("a partial capture locks the bounded accounts it releases before it writes: a post moving them queues behind it, no deadlock", async () => {
    const [x, y] = [await fundedWallet(100), await fundedWallet(100)];
    // The deadlock needs the released account to sort before the captured one (locks go in id order).
    const [released, captured] = [x, y].sort((a, b) => (a.wallet < b.wallet ? -1 : 1)) as [
      typeof x,
      typeof y,
    ];
    const held = await placeHold([
      [captured.wallet, 30],
      [captured.shop, -30],
      [released.wallet, 20],
      [released.shop, -20],
    ]);
    const session = new pg.Client({ connectionString: inject("databaseUrl") });
    const probe = new pg.Client({ connectionString: inject("databaseUrl") });
    await Promise.all([session.connect(), probe.connect()]);
    try {
      // A void of the hold, not committed: the capture waits for it after taking its locks.
      await session.query("BEGIN");
      await session.query(
        `INSERT INTO ledger.hold_resolutions (hold_id, transaction_id, principal, idempotency_key, request_hash)
         VALUES ($1, NULL, 'test-blocker', $2, repeat('0', 64))`,
        [held, key()],
      );
      const capture = client.post(`/transactions/${held}/post`, {
        idempotency_key: key(),
        entries: [
          { account_id: captured.wallet, amount: 30 },
          { account_id: captured.shop, amount: -30 },
        ],
      });
      await untilBlockedBy(session);
      const lockedByCapture = await probe
        .query("SELECT 1 FROM ledger.accounts WHERE id = $1 FOR NO KEY UPDATE NOWAIT", [released.wallet])
        .then(
          () => false,
          (error: { code?: string }) => error.code === "55P03",
        );
      expect(lockedByCapture).toBe(true);

      // Through the other instance: this one would queue it behind the capture before sending it.
      const across = ledgerClient(second.url).post(
        "/transactions",
        move([
          [released.wallet, 5],
          [captured.wallet, -5],
        ]),
      );
      await untilQueuedBehind(session, 1);
      await session.query("ROLLBACK");
      expect([(await capture).status, (await across).status]).toEqual([201, 201]);
    } finally {
      await Promise.all([session.end(), probe.end()]);
    }
    expect(await balanceOf(released.wallet)).toBe(-95);
    expect(await balanceOf(captured.wallet)).toBe(-75);
    expect(await verifyLedger(db)).toEqual([]);
  });

  it("lists an account's open holds newest first, a cursor page at a time", async () => {
    const { wallet, shop } = await fundedWallet(100);
    const placed: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      placed.push(
        await placeHold([
          [wallet, 1],
          [shop, -1],
        ]),
      );
    }
    await client.post(`/transactions/${placed[1]}/void`, { idempotency_key: key() });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await client.get(`/accounts/${wallet}/holds?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      seen.push(...(page.body.items as { id: string; status: string }[]).map((h) => h.id));
      cursor = page.body.next_cursor as string | null;
    } while (cursor);
    expect(seen).toEqual([placed[4], placed[3], placed[2], placed[0]]);

    expect((await client.get(`/accounts/${crypto.randomUUID()}/holds`)).status).toBe(404);
    const foreign = Buffer.from(JSON.stringify(["x", 1])).toString("base64url");
    for (const bad of ["nope", foreign, "limit=0"]) {
      const query = bad.startsWith("limit") ? bad : `cursor=${bad}`;
      expect((await client.get(`/accounts/${wallet}/holds?${query}`)).status, bad).toBe(400);
    }
  });

  it("takes holds in batches, counted toward the bounds in order, atomic or not", async () => {
    const { wallet, shop } = await fundedWallet(100);
    const item = (amount: number) =>
      hold([
        [wallet, amount],
        [shop, -amount],
      ]);
    const each = await client.post("/transactions/batch", { transactions: [item(60), item(60), item(40)] });
    expect(each.status).toBe(200);
    expect((each.body.results as { status: number }[]).map((r) => r.status)).toEqual([201, 422, 201]);
    expect(await pendingOf(wallet)).toEqual({ pending_debits: 100, pending_credits: 0 });

    const other = await fundedWallet(100);
    const atomic = await client.post("/transactions/batch", {
      atomic: true,
      transactions: [
        hold([
          [other.wallet, 70],
          [other.shop, -70],
        ]),
        move([
          [other.wallet, 40],
          [other.shop, -40],
        ]),
      ],
    });
    expect(atomic.status).toBe(422);
    expect(await pendingOf(other.wallet)).toEqual({ pending_debits: 0, pending_credits: 0 });
  });

  it("lets exactly as many of 64 racing holds through two instances as the wallet holds, five rounds over", async () => {
    for (let round = 0; round < 5; round += 1) {
      const { wallet, statuses } = await raceSpends([first.url, second.url], (entries) => hold(entries));
      expect(statuses, `round ${round}`).toEqual([...Array(10).fill(201), ...Array(54).fill(422)]);
      expect(await pendingOf(wallet), `round ${round}`).toEqual({ pending_debits: 100, pending_credits: 0 });
      expect(await balanceOf(wallet)).toBe(-100);
    }
  });

  it("keeps a hold's room for its own post when a spend is checked before it in one group", async () => {
    // The group commit checks posts one by one when their statement is refused: a spend taken
    // before the hold's post must not take the room the hold reserves (it did, and the post of
    // a hold that was open and funded was refused with 422 BALANCE_LIMIT_EXCEEDED).
    const { wallet, shop } = await fundedWallet(100);
    const held = await placeHold([
      [wallet, 60],
      [shop, -60],
    ]);
    const spend = newPost(
      [
        [wallet, 80],
        [shop, -80],
      ],
      null,
    );
    const capture = newPost(
      [
        [wallet, 60],
        [shop, -60],
      ],
      held,
    );
    const outcomes = await postChecked(db, [spend, capture]);
    expect(outcomes.get(spend)).toMatchObject({ status: "refused" });
    expect(outcomes.get(spend)).toHaveProperty("error.errorName", "BALANCE_LIMIT_EXCEEDED");
    expect(outcomes.get(capture)).toMatchObject({ status: 201, transaction: { hold_id: held } });
    expect(await balanceOf(wallet)).toBe(-40);
    expect(await pendingOf(wallet)).toEqual({ pending_debits: 0, pending_credits: 0 });
    // The room the post left, and nothing more, is free again: a spend of 40 passes.
    expect(
      (
        await postChecked(db, [
          newPost(
            [
              [wallet, 40],
              [shop, -40],
            ],
            null,
          ),
        ])
      )
        .values()
        .next().value,
    ).toMatchObject({ status: 201 });
  });

  it("refuses a second post of one hold checked in the same group as the hold once posted (409), not as a spend past the bound", async () => {
    // Two captures of one hold in one group-commit statement: the database refuses the statement on
    // the hold's one resolution, and its posts are checked apart. The second capture was checked
    // as a fresh spend and refused with 422 BALANCE_LIMIT_EXCEEDED, as if the wallet had no money
    // for a payment that had been captured.
    const { wallet, shop } = await fundedWallet(100);
    const entries: [string, number][] = [
      [wallet, 100],
      [shop, -100],
    ];
    const held = await placeHold(entries);
    const [one, two] = [newPost(entries, held), newPost(entries, held)];
    const outcomes = await postChecked(db, [one, two]);
    expect(outcomes.get(one)).toMatchObject({ status: 201, transaction: { hold_id: held } });
    expect(outcomes.get(two)).toMatchObject({ status: "refused" });
    expect(outcomes.get(two)).toHaveProperty("error.errorName", "HOLD_ALREADY_POSTED");
    expect(await balanceOf(wallet)).toBe(0);

    // Through HTTP, captures sent at once while other posts keep the group commit busy.
    const [cash, sales] = [await client.account(), await client.account("USD", "income")];
    for (let round = 0; round < 3; round += 1) {
      const { wallet, shop } = await fundedWallet(100);
      const racing = await placeHold([
        [wallet, 100],
        [shop, -100],
      ]);
      // The other posts first: the captures then wait together for the statement under way.
      const busy = Promise.all(
        Array.from({ length: 40 }, () =>
          client.post(
            "/transactions",
            move([
              [cash, 1],
              [sales, -1],
            ]),
          ),
        ),
      );
      const captures = await Promise.all(
        Array.from({ length: 6 }, () =>
          client.post(`/transactions/${racing}/post`, { idempotency_key: key() }),
        ),
      );
      await busy;
      const posted = captures.find((c) => c.status === 201);
      expect(posted, `round ${round}`).toBeDefined();
      for (const other of captures.filter((c) => c !== posted)) {
        expect([other.status, other.body.error, other.body.message], `round ${round}`).toEqual([
          409,
          "HOLD_ALREADY_POSTED",
          `hold ${racing} was posted by transaction ${String(posted!.body.id)}`,
        ]);
      }
      expect(await balanceOf(wallet)).toBe(0);
    }
  });

  it("lets exactly one of a post and a void racing on one hold win, through two instances", async () => {
    const { wallet, shop } = await fundedWallet(1000);
    for (let round = 0; round < 20; round += 1) {
      const held = await placeHold([
        [wallet, 10],
        [shop, -10],
      ]);
      const [posted, voided] = await Promise.all([
        ledgerClient(first.url).post(`/transactions/${held}/post`, { idempotency_key: key() }),
        ledgerClient(second.url).post(`/transactions/${held}/void`, { idempotency_key: key() }),
      ]);
      const outcome = [posted.status, voided.status];
      expect([
        [201, 409],
        [409, 200],
      ]).toContainEqual(outcome);
      const status = (await client.get(`/transactions/${held}`)).body.status;
      expect(status).toBe(posted.status === 201 ? "posted" : "voided");
      expect(posted.status === 201 ? voided.body.error : posted.body.error).toBe(
        posted.status === 201 ? "HOLD_ALREADY_POSTED" : "HOLD_VOIDED",
      );
    }
    expect(await pendingOf(wallet)).toEqual({ pending_debits: 0, pending_credits: 0 });
  });

  it("answers a void's copies sent at once with one key as one void and its replays, through two instances", async () => {
    // Unbounded accounts: a bounded one's lock would queue the copies behind each other.
    const [cash, shop] = [await client.account(), await client.account("USD", "income")];
    const COPIES = 20;
    for (let round = 0; round < 10; round += 1) {
      const held = await placeHold([
        [cash, 10],
        [shop, -10],
      ]);
      const voidKey = key();
      const copies = await Promise.all(
        Array.from({ length: COPIES }, (_, i) =>
          ledgerClient([first.url, second.url][i % 2]!).post(`/transactions/${held}/void`, {
            idempotency_key: voidKey,
          }),
        ),
      );
      const answers = copies.map((c) => [c.status, c.headers.get("idempotent-replayed"), c.body.status]);
      expect(
        answers.filter(([, replayed]) => replayed !== "true"),
        `round ${round}`,
      ).toEqual([[200, null, "voided"]]);
      expect(
        answers.filter(([, replayed]) => replayed === "true"),
        `round ${round}`,
      ).toEqual(Array(COPIES - 1).fill([200, "true", "voided"]));
    }
    expect(await pendingOf(cash)).toEqual({ pending_debits: 0, pending_credits: 0 });
  });

  // Last: after every hold, post, void and expiry above, on wallets with partial sums.
  it("leaves partial sums that ledger:verify finds equal to the entries and open holds", async () => {
    expect(await verifyLedger(db)).toEqual([]);
  });
});

import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

/**
 * The ledger's guarantees that hold without the application: raw SQL straight
 * at the database must not be able to break them.
 */
let client: pg.Client;
const accounts = { usdA: randomUUID(), usdB: randomUUID(), eurA: randomUUID(), eurB: randomUUID() };
const currencyOf: Record<string, string> = {
  [accounts.usdA]: "USD",
  [accounts.usdB]: "USD",
  [accounts.eurA]: "EUR",
  [accounts.eurB]: "EUR",
};

beforeAll(async () => {
  client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  for (const [id, currency] of Object.entries(currencyOf)) {
    await client.query(
      "INSERT INTO ledger.accounts (id, name, type, currency) VALUES ($1, $2, 'asset', $3)",
      [id, `trigger test ${id}`, currency],
    );
  }
});

afterAll(async () => {
  await client.end();
});

/** Inserts a transaction and its entries in one database transaction; resolves to its id. */
async function post(entries: [account: string, amount: number][]): Promise<string> {
  const id = randomUUID();
  await client.query("BEGIN");
  try {
    await client.query(
      "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date) VALUES ($1, 'trigger-test', gen_random_uuid()::text, repeat('0', 64), '2026-01-15')",
      [id],
    );
    for (const [position, [account, amount]] of entries.entries()) {
      await client.query(
        "INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position) VALUES ($1, $2, $3, $4, $5, '2026-01-15', $6)",
        [randomUUID(), id, account, currencyOf[account], amount, position],
      );
    }
    await client.query("COMMIT");
    return id;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/** Inserts a transaction dated 2026-01-15 and, in the same statement batch, `entries` of it; rolls back. */
async function insertEntriesOfNewTransaction(
  entries: { account: string; currency: string; amount: number; date?: string }[],
): Promise<void> {
  const id = randomUUID();
  await client.query("BEGIN");
  try {
    await client.query(
      "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date) VALUES ($1, 'trigger-test', gen_random_uuid()::text, repeat('0', 64), '2026-01-15')",
      [id],
    );
    for (const [position, entry] of entries.entries()) {
      await client.query(
        "INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [randomUUID(), id, entry.account, entry.currency, entry.amount, entry.date ?? "2026-01-15", position],
      );
    }
  } finally {
    await client.query("ROLLBACK");
  }
}

async function count(sql: string, params: unknown[]): Promise<number> {
  return Number((await client.query<{ n: string }>(sql, params)).rows[0]!.n);
}

/** Inserts a hold of `amount` from `from` to usdB, open for `seconds` (negative: already expired); its id. */
async function hold(from: string, amount: number, seconds = 600, entryOf = "hold_entries"): Promise<string> {
  const id = randomUUID();
  await client.query("BEGIN");
  try {
    await client.query(
      `INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date, hold_expires_at)
       VALUES ($1, 'trigger-test', gen_random_uuid()::text, repeat('0', 64), '2026-01-15', now() + make_interval(secs => $2))`,
      [id, seconds],
    );
    await client.query(
      entryOf === "hold_entries"
        ? `INSERT INTO ledger.hold_entries (id, hold_id, account_id, currency, amount, expires_at, position)
           SELECT gen_random_uuid(), t.id, x.account, 'USD', x.amount, t.hold_expires_at, x.position
             FROM ledger.transactions t, (VALUES ($2::uuid, $3::bigint, 0), ($4::uuid, -$3::bigint, 1)) x(account, amount, position)
            WHERE t.id = $1`
        : `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
           VALUES (gen_random_uuid(), $1, $2, 'USD', $3, '2026-01-15', 0), (gen_random_uuid(), $1, $4, 'USD', -$3::bigint, '2026-01-15', 1)`,
      [id, from, amount, accounts.usdB],
    );
    await client.query("COMMIT");
    return id;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

const voidHold = (id: string) =>
  client.query(
    `INSERT INTO ledger.hold_resolutions (hold_id, principal, idempotency_key, request_hash)
     VALUES ($1, 'trigger-test', gen_random_uuid()::text, repeat('0', 64))`,
    [id],
  );

describe("balance trigger (checked at commit)", () => {
  it("accepts a balanced two-entry transaction", async () => {
    const id = await post([
      [accounts.usdA, 500],
      [accounts.usdB, -500],
    ]);
    expect(await count("SELECT count(*) AS n FROM ledger.entries WHERE transaction_id = $1", [id])).toBe(2);
  });

  it("rejects an unbalanced transaction at commit and keeps nothing of it", async () => {
    // Only this file posts as 'trigger-test': other test files post into the same database meanwhile.
    const ownTransactions = "SELECT count(*) AS n FROM ledger.transactions WHERE principal = 'trigger-test'";
    const before = await count(ownTransactions, []);
    await expect(
      post([
        [accounts.usdA, 500],
        [accounts.usdB, -499],
      ]),
    ).rejects.toThrow(/does not sum to zero in USD/);
    expect(await count(ownTransactions, [])).toBe(before);
  });

  it("rejects a one-entry transaction", async () => {
    await expect(post([[accounts.usdA, 500]])).rejects.toThrow(/has 1 entries; at least 2 are required/);
  });

  it("rejects a transaction without entries", async () => {
    await expect(post([])).rejects.toThrow(/has 0 entries/);
  });

  it("accepts two currencies that each balance", async () => {
    await post([
      [accounts.usdA, 100],
      [accounts.usdB, -100],
      [accounts.eurA, 70],
      [accounts.eurB, -70],
    ]);
  });

  it("rejects two currencies that balance only together", async () => {
    await expect(
      post([
        [accounts.usdA, 100],
        [accounts.eurA, -100],
      ]),
    ).rejects.toThrow(/does not sum to zero/);
  });

  it("rejects an entry whose currency differs from its account's", async () => {
    const id = randomUUID();
    await client.query("BEGIN");
    await client.query(
      "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date) VALUES ($1, 'trigger-test', gen_random_uuid()::text, repeat('0', 64), '2026-01-15')",
      [id],
    );
    await expect(
      client.query(
        "INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position) VALUES ($1, $2, $3, 'EUR', 5, '2026-01-15', 0)",
        [randomUUID(), id, accounts.usdA],
      ),
    ).rejects.toThrow(/names account .* in EUR: there is no such account in that currency/);
    await client.query("ROLLBACK");
  });

  it("rejects an entry of an account that does not exist", async () => {
    await expect(
      insertEntriesOfNewTransaction([{ account: randomUUID(), currency: "USD", amount: 5 }]),
    ).rejects.toThrow(/there is no such account in that currency/);
  });

  it("rejects an entry dated otherwise than its transaction", async () => {
    await expect(
      insertEntriesOfNewTransaction([
        { account: accounts.usdA, currency: "USD", amount: 5, date: "2026-01-16" },
      ]),
    ).rejects.toThrow(/is dated 2026-01-16, not as its transaction/);
  });

  it("rejects an entry of a transaction that does not exist", async () => {
    await expect(
      client.query(
        "INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position) VALUES ($1, $2, $3, 'USD', 5, '2026-01-15', 0)",
        [randomUUID(), randomUUID(), accounts.usdA],
      ),
    ).rejects.toThrow(/cannot be added to transaction .*, posted earlier or not at all/);
  });

  it("checks every row of a many-row insert, not only the first", async () => {
    const id = randomUUID();
    await client.query("BEGIN");
    await client.query(
      "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date) VALUES ($1, 'trigger-test', gen_random_uuid()::text, repeat('0', 64), '2026-01-15')",
      [id],
    );
    await expect(
      client.query(
        `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
         SELECT gen_random_uuid(), $1, CASE WHEN g = 40 THEN $3::uuid ELSE $2::uuid END, 'USD', 1, '2026-01-15', g
           FROM generate_series(0, 49) g`,
        [id, accounts.usdA, randomUUID()],
      ),
    ).rejects.toThrow(/there is no such account in that currency/);
    await client.query("ROLLBACK");
  });

  it("rejects entries added later to a posted transaction, even balanced ones", async () => {
    const id = await post([
      [accounts.usdA, 10],
      [accounts.usdB, -10],
    ]);
    await client.query("BEGIN");
    await expect(
      client.query(
        "INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position) VALUES ($1, $2, $3, 'USD', 5, '2026-01-15', 9)",
        [randomUUID(), id, accounts.usdA],
      ),
    ).rejects.toThrow(/cannot be added to transaction/);
    await client.query("ROLLBACK");
  });
});

describe("immutability triggers", () => {
  let transactionId: string;
  beforeAll(async () => {
    transactionId = await post([
      [accounts.usdA, 7],
      [accounts.usdB, -7],
    ]);
  });

  it.each([
    [
      "UPDATE of entries",
      "UPDATE ledger.entries SET amount = amount WHERE transaction_id = $1",
      /UPDATE of ledger.entries is not allowed/,
    ],
    [
      "DELETE of entries",
      "DELETE FROM ledger.entries WHERE transaction_id = $1",
      /DELETE of ledger.entries is not allowed/,
    ],
    [
      "UPDATE of transactions",
      "UPDATE ledger.transactions SET description = 'x' WHERE id = $1",
      /UPDATE of ledger.transactions is not allowed/,
    ],
    [
      "DELETE of transactions",
      "DELETE FROM ledger.transactions WHERE id = $1",
      /DELETE of ledger.transactions is not allowed/,
    ],
  ])("rejects %s", async (_name, sql, message) => {
    await expect(client.query(sql, [transactionId])).rejects.toThrow(message);
    expect(
      await count(
        "SELECT count(*) AS n FROM ledger.entries WHERE transaction_id = $1 AND amount IN (7, -7)",
        [transactionId],
      ),
    ).toBe(2);
  });

  it.each([
    ["DELETE of an account", "DELETE FROM ledger.accounts WHERE id = $1"],
    ["a change of an account's currency", "UPDATE ledger.accounts SET currency = 'EUR' WHERE id = $1"],
    ["a change of an account's id", "UPDATE ledger.accounts SET id = gen_random_uuid() WHERE id = $1"],
  ])("rejects %s", async (_name, sql) => {
    await expect(client.query(sql, [accounts.usdA])).rejects.toThrow(
      /an account cannot be deleted, nor its id or currency changed/,
    );
    expect(
      await count("SELECT count(*) AS n FROM ledger.accounts WHERE id = $1 AND currency = 'USD'", [
        accounts.usdA,
      ]),
    ).toBe(1);
  });

  it("allows renaming an account", async () => {
    const renamed = await client.query(
      "UPDATE ledger.accounts SET name = name || ' (renamed)' WHERE id = $1 RETURNING name",
      [accounts.usdB],
    );
    expect(renamed.rowCount).toBe(1);
    expect(renamed.rows[0].name).toMatch(/ \(renamed\)$/);
  });

  it.each([
    ["entries", "TRUNCATE ledger.entries"],
    ["transactions", "TRUNCATE ledger.transactions CASCADE"],
    ["accounts", "TRUNCATE ledger.accounts CASCADE"],
  ])("rejects TRUNCATE of %s", async (table, sql) => {
    await expect(client.query(sql)).rejects.toThrow(new RegExp(`TRUNCATE of ledger.${table} is not allowed`));
    expect(
      await count("SELECT count(*) AS n FROM ledger.entries WHERE transaction_id = $1", [transactionId]),
    ).toBe(2);
  });
});

describe("bounds trigger (checked at commit)", () => {
  /** A wallet that may not be overdrawn (max_balance 0), funded with `funds`. */
  async function wallet(funds: number): Promise<string> {
    const id = randomUUID();
    currencyOf[id] = "USD";
    await client.query(
      "INSERT INTO ledger.accounts (id, name, type, currency, max_balance) VALUES ($1, $2, 'liability', 'USD', 0)",
      [id, `bounded ${id}`],
    );
    await post([
      [accounts.usdA, funds],
      [id, -funds],
    ]);
    return id;
  }

  /** Opens a database transaction on its own connection that spends `amount` from `from`, not yet committed. */
  async function openSpend(from: string, amount: number): Promise<pg.Client> {
    const session = new pg.Client({ connectionString: inject("databaseUrl") });
    await session.connect();
    const id = randomUUID();
    await session.query("BEGIN");
    await session.query(
      "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date) VALUES ($1, 'trigger-test', gen_random_uuid()::text, repeat('0', 64), '2026-01-15')",
      [id],
    );
    await session.query(
      `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
       VALUES (gen_random_uuid(), $1, $2, 'USD', $3, '2026-01-15', 0), (gen_random_uuid(), $1, $4, 'USD', -$3::bigint, '2026-01-15', 1)`,
      [id, from, amount, accounts.usdB],
    );
    return session;
  }

  it("refuses a transaction that alone takes an account past a bound it moves toward, and allows one moving away", async () => {
    const id = await wallet(100);
    await expect(
      post([
        [id, 101],
        [accounts.usdB, -101],
      ]),
    ).rejects.toThrow(/beyond its max_balance 0/);
    await post([
      [id, 100],
      [accounts.usdB, -100],
    ]);
    await post([
      [accounts.usdB, 5],
      [id, -5],
    ]);
  });

  it("refuses the second of two raw transactions that each fit alone but not together, at its commit", async () => {
    const id = await wallet(100);
    const [one, two] = [await openSpend(id, 60), await openSpend(id, 60)];
    try {
      await one.query("COMMIT");
      await expect(two.query("COMMIT")).rejects.toThrow(/takes account .* to 20, beyond its max_balance 0/);
    } finally {
      await Promise.all([one.end(), two.end()]);
    }
    expect(
      await count("SELECT coalesce(sum(amount), 0) AS n FROM ledger.entries WHERE account_id = $1", [id]),
    ).toBe(-40);
  });
});

describe("holds (raw SQL)", () => {
  /** A wallet that may not be overdrawn (max_balance 0), funded with `funds`. */
  async function wallet(funds: number): Promise<string> {
    const id = randomUUID();
    currencyOf[id] = "USD";
    await client.query(
      "INSERT INTO ledger.accounts (id, name, type, currency, max_balance) VALUES ($1, $2, 'liability', 'USD', 0)",
      [id, `held ${id}`],
    );
    await post([
      [accounts.usdA, funds],
      [id, -funds],
    ]);
    return id;
  }

  it("counts an open hold toward the bounds: a second hold or a spend past the rest is refused at commit", async () => {
    const id = await wallet(100);
    const held = await hold(id, 70);
    await expect(hold(id, 40)).rejects.toThrow(/takes account .* to 10, beyond its max_balance 0/);
    await expect(
      post([
        [id, 40],
        [accounts.usdB, -40],
      ]),
    ).rejects.toThrow(/beyond its max_balance 0/);
    await voidHold(held);
    await post([
      [id, 40],
      [accounts.usdB, -40],
    ]);
    // An expired hold counts for nothing.
    await expect(hold(id, 60, -1)).resolves.toBeTypeOf("string");
    await hold(id, 60);
  });

  it("keeps entries to transactions and hold entries to holds, each balanced", async () => {
    const id = await wallet(100);
    await expect(hold(id, 10, 600, "entries")).rejects.toThrow(/is a hold: its entries are hold entries/);
    await client.query("BEGIN");
    try {
      const ordinary = randomUUID();
      await client.query(
        "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date) VALUES ($1, 'trigger-test', gen_random_uuid()::text, repeat('0', 64), '2026-01-15')",
        [ordinary],
      );
      await expect(
        client.query(
          `INSERT INTO ledger.hold_entries (id, hold_id, account_id, currency, amount, expires_at, position)
           VALUES (gen_random_uuid(), $1, $2, 'USD', 5, now(), 0)`,
          [ordinary, id],
        ),
      ).rejects.toThrow(/hold entries join a hold written with them/);
    } finally {
      await client.query("ROLLBACK");
    }
    const held = await hold(id, 10);
    await expect(
      client.query("UPDATE ledger.hold_entries SET amount = 1 WHERE hold_id = $1", [held]),
    ).rejects.toThrow();
    await expect(
      client.query("DELETE FROM ledger.hold_entries WHERE hold_id = $1", [held]),
    ).rejects.toThrow();
  });

  it("resolves a hold once, before it expires, and a transaction posting a hold only with its resolution", async () => {
    const id = await wallet(100);
    const held = await hold(id, 10);
    await voidHold(held);
    await expect(voidHold(held)).rejects.toThrow(/hold_resolutions_pkey/);
    await expect(
      client.query("DELETE FROM ledger.hold_resolutions WHERE hold_id = $1", [held]),
    ).rejects.toThrow();
    const expired = await hold(id, 10, -1);
    await expect(voidHold(expired)).rejects.toThrow(/expired at/);

    const open = await hold(id, 10);
    await client.query("BEGIN");
    try {
      const posting = randomUUID();
      await client.query(
        "INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date, hold_id) VALUES ($1, 'trigger-test', gen_random_uuid()::text, repeat('0', 64), '2026-01-15', $2)",
        [posting, open],
      );
      await client.query(
        `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
         VALUES (gen_random_uuid(), $1, $2, 'USD', 10, '2026-01-15', 0), (gen_random_uuid(), $1, $3, 'USD', -10, '2026-01-15', 1)`,
        [posting, id, accounts.usdB],
      );
      await expect(client.query("COMMIT")).rejects.toThrow(/posts hold .* without resolving it/);
    } finally {
      await client.query("ROLLBACK");
    }
  });
});

describe("partial sums of bounded accounts (account_totals)", () => {
  const totalsOf = async (account: string) =>
    (
      await client.query<{ total: string; transaction_id: string | null }>(
        "SELECT total::text, transaction_id FROM ledger.account_totals WHERE account_id = $1 ORDER BY version",
        [account],
      )
    ).rows;

  async function boundedWallet(funds: number): Promise<string> {
    const id = randomUUID();
    currencyOf[id] = "USD";
    await client.query(
      "INSERT INTO ledger.accounts (id, name, type, currency, max_balance) VALUES ($1, $2, 'liability', 'USD', 0)",
      [id, `totalled ${id}`],
    );
    await post([
      [accounts.usdA, funds],
      [id, -funds],
    ]);
    return id;
  }

  it("keeps a total per posted transaction of a bounded account, none for an unbounded one", async () => {
    const id = await boundedWallet(100);
    const spent = await post([
      [id, 30],
      [accounts.usdB, -30],
    ]);
    expect((await totalsOf(id)).map((t) => t.total)).toEqual(["-100", "-70"]);
    expect((await totalsOf(id)).at(-1)!.transaction_id).toBe(spent);
    expect(await totalsOf(accounts.usdB)).toEqual([]);
  });

  it("takes no total by hand and changes none; truncated, the next post sums the entries and answers as before", async () => {
    const id = await boundedWallet(100);
    await expect(
      client.query(
        "INSERT INTO ledger.account_totals (account_id, version, total) VALUES ($1, 99, -1000000)",
        [id],
      ),
    ).rejects.toThrow(/written by the ledger's triggers only/);
    await expect(
      client.query("UPDATE ledger.account_totals SET total = -1000000 WHERE account_id = $1", [id]),
    ).rejects.toThrow();
    await expect(
      client.query("DELETE FROM ledger.account_totals WHERE account_id = $1", [id]),
    ).rejects.toThrow();

    await client.query("TRUNCATE ledger.account_totals");
    await expect(
      post([
        [id, 101],
        [accounts.usdB, -101],
      ]),
    ).rejects.toThrow(/to 1, beyond its max_balance 0/);
    await post([
      [id, 100],
      [accounts.usdB, -100],
    ]);
    expect((await totalsOf(id)).map((t) => t.total)).toEqual(["0"]);
  });

  it("starts an account's totals afresh when it is given bounds again, with the entries posted meanwhile", async () => {
    const id = await boundedWallet(100);
    await client.query("UPDATE ledger.accounts SET max_balance = NULL WHERE id = $1", [id]);
    await post([
      [id, 150],
      [accounts.usdB, -150],
    ]);
    await client.query("UPDATE ledger.accounts SET max_balance = 100 WHERE id = $1", [id]);
    expect((await totalsOf(id)).map((t) => [t.total, t.transaction_id])).toEqual([
      ["-100", expect.any(String)],
      ["50", null],
    ]);
    await expect(
      post([
        [id, 51],
        [accounts.usdB, -51],
      ]),
    ).rejects.toThrow(/to 101, beyond its max_balance 100/);
  });

  it("keeps what open holds reserve: a hold adds it, a void releases it, the next row takes an expired one away", async () => {
    const id = await boundedWallet(100);
    const held = await hold(id, 30);
    await hold(id, 20, 1);
    const reserved = async () =>
      (
        await client.query<{ debits: string; credits: string }>(
          "SELECT held_debits::text AS debits, held_credits::text AS credits FROM ledger.account_totals WHERE account_id = $1 ORDER BY version DESC LIMIT 1",
          [id],
        )
      ).rows[0];
    expect(await reserved()).toEqual({ debits: "50", credits: "0" });
    await voidHold(held);
    expect(await reserved()).toEqual({ debits: "20", credits: "0" });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await post([
      [id, 100],
      [accounts.usdB, -100],
    ]);
    expect(await reserved()).toEqual({ debits: "0", credits: "0" });
    expect((await totalsOf(id)).at(-1)!.total).toBe("0");
  });
});

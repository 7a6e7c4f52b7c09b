import { randomUUID } from "node:crypto";
import { isoTimestampSql, queryRows, type Queryable } from "@app/db";
import type { Transaction } from "../schemas.ts";
import { inJsonbKeyOrder } from "./metadata-order.ts";

/** A transaction ready to be written: checked in shape, not yet against the database. */
export interface NewTransaction {
  /** Who posts it: its idempotency key is this principal's (docs/ledger-api.md, "Idempotency"). */
  principal: string;
  idempotencyKey: string;
  requestHash: string;
  description: string | null;
  effectiveDate: string;
  reversesTransactionId: string | null;
  /** A hold: open for this many seconds from its statement's start (now(); its entries are hold entries). */
  holdSeconds: number | null;
  /** A post of this hold: written with the hold's resolution. */
  holdId: string | null;
  /** Fixed with it; answered in jsonb's key order (metadata-order.ts). */
  metadata: Record<string, string>;
  entries: { account_id: string; amount: number }[];
}

/**
 * A CTE `bounded` locking the bounded accounts among parameter `$n` in id
 * order (the statement waits on it before writing), with those of the holds
 * in parameter `$holds` when given: a post of a hold releases the hold's
 * accounts its entries leave out, and the bounds trigger locks them at
 * commit. Taken later than the others, such a lock could close a cycle with
 * a statement that locked it first and waits for one of ours: a deadlock.
 */
export const lockBoundedSql = (n: number, holds?: number) => `bounded AS (
   SELECT a.id FROM ledger.accounts a
    WHERE (a.id = ANY($${n}::uuid[])${
      holds
        ? ` OR a.id IN (SELECT h.account_id FROM ledger.hold_entries h WHERE h.hold_id = ANY($${holds}::uuid[]))`
        : ""
    })
      AND (a.min_balance IS NOT NULL OR a.max_balance IS NOT NULL)
    ORDER BY a.id FOR NO KEY UPDATE)`;

/** The answer's rows: each written transaction, its time, a hold's expiry, its entries' currencies in order. */
const WRITTEN = (
  entries: string,
) => `SELECT t.id::text AS id, ${isoTimestampSql("t.created_at")} AS created_at,
       ${isoTimestampSql("t.hold_expires_at")} AS expires_at, w.currencies
  FROM t JOIN (SELECT e.transaction_id, array_agg(e.currency ORDER BY e.position) AS currencies
                 FROM ${entries} e GROUP BY e.transaction_id) w
    ON w.transaction_id = t.id`;

/**
 * A CTE `bounding` naming the transactions ($9, of the entries $10) that move
 * a bounded account, and the order transactions (alias `i`, numbered `n` as
 * given, joined to `bounding` as `b`) are inserted in: those that move none
 * first, in key order; then those that move one, as given. The bounds
 * trigger checks each at commit in that order, and the ledger checked their
 * bounds in the order given (a batch's top-up before its spend, whatever
 * their keys). Two statements cannot deadlock on each other's keys: those of
 * posts that move no bounded account go in sorted order, and two statements
 * that write one key for a post that moves a bounded account both lock that
 * account first (`bounded`), one after the other. Only one key sent at once
 * with two bodies, one moving a bounded account and one not, can meet another
 * such key the other way round: PostgreSQL then refuses one statement as a
 * deadlock, and its posts are written apart (group-commit.ts).
 */
const BOUNDING_SQL = `bounding AS (
   SELECT DISTINCT p.transaction_id FROM unnest($9::uuid[], $10::uuid[]) AS p(transaction_id, account_id)
     JOIN bounded ON bounded.id = p.account_id)`;
const INSERT_ORDER_SQL = `ORDER BY b.transaction_id IS NOT NULL, CASE WHEN b.transaction_id IS NOT NULL THEN i.n END,
              i.principal, i.idempotency_key`;

/** Posts that neither hold nor post a hold: $1-$7 and $13 the transactions, $8-$12 their entries. */
const INSERT_POSTS = `WITH ${lockBoundedSql(10)}, ${BOUNDING_SQL},
  t AS (
    INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, description, effective_date, reverses_transaction_id,
                                     metadata)
    SELECT i.id, i.principal, i.idempotency_key, i.request_hash, i.description, i.effective_date,
           i.reverses_transaction_id, i.metadata
      FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::uuid[], $13::jsonb[])
        WITH ORDINALITY AS i(id, principal, idempotency_key, request_hash, description, effective_date,
                             reverses_transaction_id, metadata, n)
      LEFT JOIN bounding b ON b.transaction_id = i.id
     ${INSERT_ORDER_SQL}
    ON CONFLICT (principal, idempotency_key) DO NOTHING
    RETURNING id, effective_date, created_at, hold_expires_at),
  written_entries AS (
    INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
    SELECT p.id, t.id, p.account_id, a.currency, p.amount, t.effective_date, p.position
      FROM unnest($8::uuid[], $9::uuid[], $10::uuid[], $11::bigint[], $12::int[])
        AS p(id, transaction_id, account_id, amount, position)
      JOIN t ON t.id = p.transaction_id
      LEFT JOIN ledger.accounts a ON a.id = p.account_id
    RETURNING transaction_id, currency, position)
${WRITTEN("written_entries")}`;

/**
 * Posts among which are holds or posts of holds: as INSERT_POSTS, with $14
 * each hold's seconds (null: not a hold) and $15 the hold each posts (null:
 * none). A hold's entries are hold entries; a post of a hold writes the hold's
 * resolution.
 */
const INSERT_WITH_HOLDS = `WITH ${lockBoundedSql(10, 15)}, ${BOUNDING_SQL},
  t AS (
    INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, description, effective_date,
                                     reverses_transaction_id, metadata, hold_expires_at, hold_id)
    SELECT i.id, i.principal, i.idempotency_key, i.request_hash, i.description, i.effective_date,
           i.reverses_transaction_id, i.metadata, now() + make_interval(secs => i.hold_seconds), i.hold_id
      FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::uuid[], $13::jsonb[],
                  $14::int[], $15::uuid[])
        WITH ORDINALITY AS i(id, principal, idempotency_key, request_hash, description, effective_date,
                             reverses_transaction_id, metadata, hold_seconds, hold_id, n)
      LEFT JOIN bounding b ON b.transaction_id = i.id
     ${INSERT_ORDER_SQL}
    ON CONFLICT (principal, idempotency_key) DO NOTHING
    RETURNING id, principal, idempotency_key, request_hash, effective_date, created_at, hold_expires_at, hold_id),
  p AS (
    SELECT p.*, t.effective_date, t.hold_expires_at, a.currency
      FROM unnest($8::uuid[], $9::uuid[], $10::uuid[], $11::bigint[], $12::int[])
        AS p(id, transaction_id, account_id, amount, position)
      JOIN t ON t.id = p.transaction_id
      LEFT JOIN ledger.accounts a ON a.id = p.account_id),
  written_entries AS (
    INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
    SELECT id, transaction_id, account_id, currency, amount, effective_date, position FROM p
     WHERE hold_expires_at IS NULL
    RETURNING transaction_id, currency, position),
  written_hold_entries AS (
    INSERT INTO ledger.hold_entries (id, hold_id, account_id, currency, amount, expires_at, position)
    SELECT id, transaction_id, account_id, currency, amount, hold_expires_at, position FROM p
     WHERE hold_expires_at IS NOT NULL
    RETURNING hold_id AS transaction_id, currency, position),
  resolutions AS (
    INSERT INTO ledger.hold_resolutions (hold_id, transaction_id, principal, idempotency_key, request_hash)
    SELECT hold_id, id, principal, idempotency_key, request_hash FROM t WHERE hold_id IS NOT NULL)
${WRITTEN("(SELECT * FROM written_entries UNION ALL SELECT * FROM written_hold_entries)")}`;

/**
 * Inserts transactions and their entries in one statement (one round trip, one
 * implicit database transaction: the balance triggers run at its commit) and
 * answers each one as written; null for a key that is known (or repeated in
 * `txs`: the first one is written; keys are the principal's). An unknown account has no currency, so its
 * entry breaks the NOT NULL (never silently dropped); unbalanced entries fail
 * the balance trigger, a balance limit passed the bounds trigger; any of them
 * refuses the whole statement. The bounded accounts of all the posts are
 * locked first, in id order (the bounds trigger locks them again at commit,
 * one transaction after another), and the transactions inserted in the order
 * of INSERT_ORDER_SQL, so two statements (from two servers) cannot deadlock. A hold's entries
 * are hold entries; a post of a hold writes the hold's resolution with it (a
 * hold resolved before breaks hold_resolutions_pkey: the statement too).
 * Posts without either take the statement of before holds existed, which
 * does less (measured: docs/benchmarks.md, "Balance limits and holds").
 *
 * The answer is built here from the values sent and what the database added
 * (ids are made here; the time and each entry's currency come back), not by
 * TRANSACTION_JSON as a replay reads it: building JSON in PostgreSQL makes
 * every statement longer, a wait for every post queued behind it (measured:
 * docs/benchmarks.md, "Posting"). The values are the columns' own (ids in
 * lower case, dates as PostgreSQL writes them, times by the same to_char),
 * and a test compares both answers byte for byte.
 */
export async function insertTransactions(
  db: Queryable,
  txs: NewTransaction[],
): Promise<Map<NewTransaction, Transaction | null>> {
  const written = new Map<NewTransaction, Transaction | null>(txs.map((tx) => [tx, null]));
  const unique = firstOfEachKey(txs).map((tx) => ({
    tx,
    id: randomUUID(),
    entryIds: tx.entries.map(() => randomUUID()),
  }));
  const entries = unique.flatMap(({ tx, id, entryIds }) =>
    tx.entries.map((e, position) => ({ ...e, id: entryIds[position]!, transactionId: id, position })),
  );
  const withHolds = unique.some(({ tx }) => tx.holdSeconds !== null || tx.holdId !== null);
  const values = [
    unique.map(({ id }) => id),
    unique.map(({ tx }) => tx.principal),
    unique.map(({ tx }) => tx.idempotencyKey),
    unique.map(({ tx }) => tx.requestHash),
    unique.map(({ tx }) => tx.description),
    unique.map(({ tx }) => tx.effectiveDate),
    unique.map(({ tx }) => tx.reversesTransactionId),
    entries.map((e) => e.id),
    entries.map((e) => e.transactionId),
    entries.map((e) => e.account_id),
    entries.map((e) => e.amount),
    entries.map((e) => e.position),
    unique.map(({ tx }) => JSON.stringify(tx.metadata)),
  ];
  const rows = await queryRows<{
    id: string;
    created_at: string;
    expires_at: string | null;
    currencies: string[];
  }>(
    db,
    withHolds ? INSERT_WITH_HOLDS : INSERT_POSTS,
    ...values,
    ...(withHolds ? [unique.map(({ tx }) => tx.holdSeconds), unique.map(({ tx }) => tx.holdId)] : []),
  );
  const byId = new Map<string, (typeof unique)[number]>(unique.map((u) => [u.id, u]));
  for (const row of rows) {
    const { tx, id, entryIds } = byId.get(row.id)!;
    written.set(tx, {
      id,
      idempotency_key: tx.idempotencyKey,
      description: tx.description,
      effective_date: tx.effectiveDate,
      reverses_transaction_id: tx.reversesTransactionId,
      status: tx.holdSeconds === null ? "posted" : "pending",
      hold_id: tx.holdId,
      expires_at: row.expires_at,
      metadata: inJsonbKeyOrder(tx.metadata),
      created_at: row.created_at,
      entries: tx.entries.map((e, position) => ({
        id: entryIds[position]!,
        transaction_id: id,
        account_id: e.account_id,
        currency: row.currencies[position]!,
        amount: e.amount,
        effective_date: tx.effectiveDate,
        created_at: row.created_at,
      })),
    });
  }
  return written;
}

/** A principal's idempotency key as one string: the same key of two principals is two keys. */
export function scopedKey(tx: Pick<NewTransaction, "principal" | "idempotencyKey">): string {
  return JSON.stringify([tx.principal, tx.idempotencyKey]);
}

/** The first post of each (principal's) idempotency key, in order. */
export function firstOfEachKey(txs: NewTransaction[]): NewTransaction[] {
  const byKey = new Map<string, NewTransaction>();
  for (const tx of txs) if (!byKey.has(scopedKey(tx))) byKey.set(scopedKey(tx), tx);
  return [...byKey.values()];
}

/**
 * How the database refuses a post on its merits: an entry of an unknown
 * account has no currency (not_null_violation), entries that do not balance
 * fail the trigger (check_violation).
 */
export const REFUSED_POST = new Set(["23502", "23514"]);

/** Each currency whose entries do not sum to zero, with its sum. Exact: a running total of safe integers need not be one. */
export function unbalancedCurrencies(
  tx: NewTransaction,
  currencies: Record<string, string>,
): [string, bigint][] {
  const sums = new Map<string, bigint>();
  for (const entry of tx.entries) {
    const currency = currencies[entry.account_id]!;
    sums.set(currency, (sums.get(currency) ?? 0n) + BigInt(entry.amount));
  }
  return [...sums].filter(([, sum]) => sum !== 0n);
}

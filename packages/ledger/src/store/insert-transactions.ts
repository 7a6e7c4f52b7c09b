import { randomUUID } from "node:crypto";
import { queryRows, type Database } from "@app/db";
import type { Transaction } from "../schemas.ts";
import { ENTRIES_JSON, transactionJson } from "./sql.ts";

/** A transaction ready to be written: checked in shape, not yet against the database. */
export interface NewTransaction {
  idempotencyKey: string;
  requestHash: string;
  description: string | null;
  effectiveDate: string;
  reversesTransactionId: string | null;
  entries: { account_id: string; amount: number }[];
}

/**
 * Inserts transactions and their entries in one statement (one round trip, one
 * implicit database transaction: the balance triggers run at its commit) and
 * answers each one's JSON built from the rows written, by the expression a
 * replay reads through; null for a key that is known (or repeated in `txs`:
 * the first one is written). An unknown account has no currency, so its entry
 * breaks the NOT NULL (never silently dropped); unbalanced entries fail the
 * balance trigger; either refuses the whole statement. Keys are inserted in
 * sorted order, so two statements waiting on each other's keys (from two
 * servers) cannot deadlock.
 */
export async function insertTransactions(
  db: Database,
  txs: NewTransaction[],
): Promise<Map<NewTransaction, Transaction | null>> {
  const written = new Map<NewTransaction, Transaction | null>(txs.map((tx) => [tx, null]));
  const unique = firstOfEachKey(txs).map((tx) => ({ tx, id: randomUUID() }));
  const entries = unique.flatMap(({ tx, id }) => tx.entries.map((e, position) => ({ ...e, id, position })));
  const rows = await queryRows<{ id: string; transaction: Transaction }>(
    db,
    `WITH t AS (
       INSERT INTO ledger.transactions (id, idempotency_key, request_hash, description, effective_date, reverses_transaction_id)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::date[], $6::uuid[])
         AS i(id, idempotency_key, request_hash, description, effective_date, reverses_transaction_id)
        ORDER BY idempotency_key
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING *),
     written_entries AS (
       INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
       SELECT gen_random_uuid(), t.id, p.account_id, a.currency, p.amount, t.effective_date, p.position
         FROM unnest($7::uuid[], $8::uuid[], $9::bigint[], $10::int[]) AS p(transaction_id, account_id, amount, position)
         JOIN t ON t.id = p.transaction_id
         LEFT JOIN ledger.accounts a ON a.id = p.account_id
       RETURNING *)
     SELECT t.id::text AS id, ${transactionJson("w.entries")} AS transaction
       FROM t JOIN (SELECT e.transaction_id, ${ENTRIES_JSON} AS entries FROM written_entries e GROUP BY e.transaction_id) w
         ON w.transaction_id = t.id`,
    unique.map(({ id }) => id),
    unique.map(({ tx }) => tx.idempotencyKey),
    unique.map(({ tx }) => tx.requestHash),
    unique.map(({ tx }) => tx.description),
    unique.map(({ tx }) => tx.effectiveDate),
    unique.map(({ tx }) => tx.reversesTransactionId),
    entries.map((e) => e.id),
    entries.map((e) => e.account_id),
    entries.map((e) => e.amount),
    entries.map((e) => e.position),
  );
  const byId = new Map<string, NewTransaction>(unique.map(({ tx, id }) => [id, tx]));
  for (const row of rows) written.set(byId.get(row.id)!, row.transaction);
  return written;
}

/** The first post of each idempotency key, in order. */
export function firstOfEachKey(txs: NewTransaction[]): NewTransaction[] {
  const byKey = new Map<string, NewTransaction>();
  for (const tx of txs) if (!byKey.has(tx.idempotencyKey)) byKey.set(tx.idempotencyKey, tx);
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

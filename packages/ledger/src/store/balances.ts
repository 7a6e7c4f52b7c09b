import { inTransaction, PLAN_EACH_CALL, queryRows, type Database } from "@app/db";
import { z } from "zod";
import { cursorPart, listCursor } from "../list-cursor.ts";
import type { Entry } from "../schemas.ts";
import { accountNotFound } from "./accounts.ts";
import { ENTRY_JSON } from "./sql.ts";

/**
 * A sum as the API answers it. A sum of safe integers can leave the safe
 * range, where no JSON number is exact: then `balance` is null and only the
 * digits tell it. One account so is no reason to fail a read of any other.
 */
function exactBalance(sum: string): { balance: number | null; balance_exact: string } {
  return { balance: safeOrNull(sum), balance_exact: sum };
}

/** Digits as a JSON number when one holds them exactly, else null. */
function safeOrNull(digits: string): number | null {
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * The sum of the account's entries with effective_date <= asOf, summed from
 * the entries every time, what its open holds reserve now, and the room its
 * bounds leave now: the largest move one post may make each way, as the
 * bounds check (balance-bounds.ts) counts it, from the sum of every entry
 * whatever its date and the holds' reservations that way.
 */
export async function getBalance(db: Database, accountId: string, asOf: string) {
  const [row] = await queryRows<{
    id: string;
    currency: string;
    balance: string;
    pending_debits: string;
    pending_credits: string;
    room_to_debit: string | null;
    room_to_credit: string | null;
  }>(
    db,
    // The sum is not correlated with the account row, so it is planned for this
    // very account (index-only or parallel scan), exactly like the bare SUM.
    // pending_of's total (all entries, from the partial sums) is there for a bounded account only.
    `SELECT a.id, a.currency, b.balance::text AS balance, p.debits::text AS pending_debits, p.credits::text AS pending_credits,
            -- greatest() skips a null: without the bound the room is null, not 0.
            CASE WHEN a.max_balance IS NOT NULL THEN greatest(a.max_balance - (p.total + p.debits), 0)::text END AS room_to_debit,
            CASE WHEN a.min_balance IS NOT NULL THEN greatest(p.total + p.credits - a.min_balance, 0)::text END AS room_to_credit
       FROM ledger.accounts a,
            (SELECT coalesce(sum(amount), 0) AS balance FROM ledger.entries
              WHERE account_id = $1::uuid AND effective_date <= $2::date) b,
            ledger.pending_of($1::uuid, '{}') p
      WHERE a.id = $1::uuid`,
    accountId,
    asOf,
  );
  if (!row) throw accountNotFound();
  return {
    // The id as stored, as every other answer gives it: the path's may be in upper case.
    account_id: row.id,
    as_of: asOf,
    currency: row.currency,
    ...exactBalance(row.balance),
    pending_debits: safeOrNull(row.pending_debits),
    pending_credits: safeOrNull(row.pending_credits),
    room_to_debit: roomOf(row.room_to_debit),
    room_to_credit: roomOf(row.room_to_credit),
  };
}

/** A bound's room as a JSON number: null without the bound; a room past 2^53-1 is that, more than any amount. */
function roomOf(digits: string | null): number | null {
  if (digits === null) return null;
  return BigInt(digits) > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(digits);
}

/**
 * GET /balances sums every entry of the ledger, which over a large one takes
 * longer than a statement may (DB_STATEMENT_TIMEOUT_MS): it has a bound of its own.
 */
export const ALL_BALANCES_TIMEOUT_MS = 30_000;

/**
 * Every account, zero balances included, in creation order: one pass over the
 * entries grouped by account (a per-account subquery would be planned once
 * for all accounts and can fall back to a scan per account).
 */
export async function getAllBalances(db: Database, asOf: string) {
  const rows = await inTransaction(
    db,
    async (tx) => {
      await tx.query(`SELECT set_config('statement_timeout', $1, true)`, String(ALL_BALANCES_TIMEOUT_MS));
      return tx.query<{ id: string; name: string; currency: string; balance: string }>(
        `${PLAN_EACH_CALL}
         SELECT a.id::text, a.name, a.currency, coalesce(s.balance, 0)::text AS balance
           FROM ledger.accounts a
           LEFT JOIN (SELECT account_id, sum(amount) AS balance FROM ledger.entries
                       WHERE effective_date <= $1::date GROUP BY account_id) s ON s.account_id = a.id
          ORDER BY a.seq`,
        asOf,
      );
    },
    // The statement's own timeout answers first; this only ends a transaction the statement outlived.
    { timeoutMs: ALL_BALANCES_TIMEOUT_MS + 1_000 },
  );
  return {
    as_of: asOf,
    accounts: rows.map(({ balance, ...account }) => ({ ...account, ...exactBalance(balance) })),
  };
}

const entriesCursor = listCursor("entries", cursorPart.date(), cursorPart.datetime(), z.uuid());

/**
 * A page of the account's entries, most recent first (effective_date, then
 * created_at and id, descending): from `offset`, or after a cursor's entry,
 * which costs the same at any depth. Either page answers the cursor of its
 * last entry when more follow.
 */
export async function listAccountEntries(
  db: Database,
  accountId: string,
  limit: number,
  from: { offset: number } | { cursor: string },
) {
  const scope = accountId.toLowerCase();
  const after = "cursor" in from ? entriesCursor.decode(scope, from.cursor) : null;
  const [row] = await queryRows<{ found: boolean; items: Entry[] }>(
    db,
    `SELECT EXISTS (SELECT 1 FROM ledger.accounts WHERE id = $1::uuid) AS found,
            (SELECT coalesce(json_agg(${ENTRY_JSON} ORDER BY e.effective_date DESC, e.created_at DESC, e.id DESC), '[]'::json)
               FROM (SELECT * FROM ledger.entries WHERE account_id = $1::uuid
                        ${after ? "AND (effective_date, created_at, id) < ($4::date, $5::timestamptz, $6::uuid)" : ""}
                      ORDER BY effective_date DESC, created_at DESC, id DESC LIMIT $2 + 1 OFFSET $3) e) AS items`,
    accountId,
    limit,
    "offset" in from ? from.offset : 0,
    ...(after ?? []),
  );
  if (!row?.found) throw accountNotFound();
  const last = row.items.length > limit ? row.items[limit - 1]! : null;
  return {
    items: row.items.slice(0, limit),
    limit,
    offset: "offset" in from ? from.offset : 0,
    next_cursor: last && entriesCursor.encode(scope, [last.effective_date, last.created_at, last.id]),
  };
}

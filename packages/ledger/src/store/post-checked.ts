import { isoTimestampSql, queryRows, type Database, type Queryable } from "@app/db";
import { DomainError } from "@app/rest/errors";
import type { Transaction } from "../schemas.ts";
import {
  insertTransactions,
  scopedKey,
  unbalancedCurrencies,
  type NewTransaction,
} from "./insert-transactions.ts";
import {
  boundedAccountsSql,
  boundsCheck,
  untilWithinBounds,
  type BoundedAccount,
  type HoldReservation,
} from "./balance-bounds.ts";
import { holdConflict } from "./hold-conflict.ts";
import { alreadyReversed } from "./reversal-conflict.ts";
import { STATUS_SQL, TRANSACTION_JSON } from "./sql.ts";

/**
 * What became of a post: written (201), its key's original (200), or refused
 * with why (a 422, or the 409 of a hold that can no longer be posted).
 */
export type PostOutcome =
  | {
      status: 201 | 200;
      transaction: Transaction;
      /** The request hash of the post that wrote `transaction`, to tell a replay from a reused key. */
      originalHash: string;
    }
  | Refused;

export type Refused = { status: "refused"; error: DomainError };

export const isRefused = (outcome: PostOutcome | null | undefined): outcome is Refused =>
  outcome?.status === "refused";

/**
 * Posts checked against the database first, in one query for all of them:
 * a known key answers its original; an unknown account, entries that do not
 * balance, a balance limit passed (422, named), a hold resolved or expired or
 * a transaction reversed already (409) are refused; the rest are
 * written in one statement, and so in one database transaction (checked again
 * when others took a bounded account's room meanwhile: untilWithinBounds).
 * Keys must differ from each other. `decidedCount`, given the check, says how
 * many posts from the first this call decides (all by default): the outcomes
 * are theirs, and the others are left unwritten.
 */
export async function postChecked(
  db: Database,
  txs: NewTransaction[],
  decidedCount: (checked: Map<NewTransaction, PostOutcome | null>) => number = () => txs.length,
): Promise<Map<NewTransaction, PostOutcome>> {
  return untilWithinBounds(async () => {
    const checked = await checkPosts(db, txs);
    const decided = txs.slice(0, decidedCount(checked));
    const writable = decided.filter((tx) => checked.get(tx) === null);
    const written = await writeCheckedPosts(db, writable);
    return new Map(decided.map((tx) => [tx, checked.get(tx) ?? written.get(tx)!]));
  });
}

/**
 * Each post's outcome as far as the database tells without writing: its
 * key's original, a refusal, or null when it may be written. Posts are taken
 * in order: one that passes counts toward the bounds of those after it, and
 * a later post of the hold it posts is refused as the hold is once posted
 * (409, not the 422 of a second capture checked against the bounds).
 */
export async function checkPosts(
  db: Database,
  txs: NewTransaction[],
): Promise<Map<NewTransaction, PostOutcome | null>> {
  const accountIds = [...new Set(txs.flatMap((tx) => tx.entries.map((e) => e.account_id)))];
  const [state] = await queryRows<{
    known: KnownTransaction[] | null;
    currencies: Record<string, string> | null;
    bounded: Record<string, BoundedAccount> | null;
    holds: Record<
      string,
      Pick<Transaction, "id" | "status" | "expires_at"> & { reserved: HoldReservation | null }
    > | null;
    reversals: Record<string, string> | null;
  }>(
    db,
    `SELECT (${KNOWN_TRANSACTIONS_SQL}) AS known,
            (SELECT json_object_agg(id, currency) FROM ledger.accounts WHERE id = ANY($3::uuid[])) AS currencies,
            (${boundedAccountsSql(3)}) AS bounded,
            (SELECT json_object_agg(t.id, json_build_object('id', t.id, 'status', ${STATUS_SQL},
                                                            'expires_at', ${isoTimestampSql("t.hold_expires_at")},
                                                            'reserved', (${RESERVED_SQL})))
               FROM ledger.transactions t WHERE t.id = ANY($4::uuid[])) AS holds,
            (SELECT json_object_agg(reverses_transaction_id, id) FROM ledger.transactions
              WHERE reverses_transaction_id = ANY($5::uuid[])) AS reversals`,
    txs.map((tx) => tx.principal),
    txs.map((tx) => tx.idempotencyKey),
    accountIds,
    txs.flatMap((tx) => (tx.holdId ? [tx.holdId] : [])),
    txs.flatMap((tx) => (tx.reversesTransactionId ? [tx.reversesTransactionId] : [])),
  );
  const known = byScopedKey(state?.known);
  const currencies = state?.currencies ?? {};
  const holds = state?.holds ?? {};
  const reversals = state?.reversals ?? {};
  // A hold is refused as resolved or expired before its reservation would be released.
  const boundsRefusalOf = boundsCheck(state?.bounded ?? {}, (holdId) => holds[holdId]?.reserved ?? undefined);
  const postedHere = new Set<string>();
  const holdRefusalOf = (holdId: string) => {
    const hold = holds[holdId]!;
    return holdConflict(postedHere.has(holdId) ? { ...hold, status: "posted" } : hold);
  };
  return new Map(
    txs.map((tx) => {
      const original = known.get(scopedKey(tx));
      if (original) return [tx, replayOf(original)];
      const reversed = tx.reversesTransactionId;
      // A hold posted or voided, or a transaction reversed, meanwhile (by another writer, or after an earlier check) is a 409.
      const refusal =
        (tx.holdId && holdRefusalOf(tx.holdId)) ||
        (reversed && reversed in reversals && alreadyReversed(reversed, reversals[reversed])) ||
        refusalOf(tx, currencies) ||
        boundsRefusalOf(tx);
      if (refusal) return [tx, { status: "refused", error: refusal }];
      if (tx.holdId) postedHere.add(tx.holdId);
      return [tx, null];
    }),
  );
}

/**
 * Writes posts in one statement; the database refuses the whole statement
 * for a post it must not hold (insertTransactions). A post whose key was
 * known, or taken meanwhile by another writer or by an earlier post of `txs`,
 * answers that transaction, as a replay.
 */
export async function writeCheckedPosts(
  db: Queryable,
  txs: NewTransaction[],
): Promise<Map<NewTransaction, PostOutcome>> {
  if (txs.length === 0) return new Map();
  const written = await insertTransactions(db, txs);
  const outcomes = new Map<NewTransaction, PostOutcome>();
  const taken: NewTransaction[] = [];
  for (const tx of txs) {
    const transaction = written.get(tx);
    if (transaction) outcomes.set(tx, { status: 201, transaction, originalHash: tx.requestHash });
    else taken.push(tx);
  }
  if (taken.length > 0) {
    const known = await knownTransactions(db, taken);
    for (const tx of taken) outcomes.set(tx, replayOf(known.get(scopedKey(tx))!));
  }
  return outcomes;
}

export interface KnownTransaction {
  principal: string;
  idempotency_key: string;
  request_hash: string;
  transaction: Transaction;
}

/** What hold `t` reserves on each account (HoldReservation), as ledger.pending_of counts it. */
const RESERVED_SQL = `SELECT json_object_agg(n.account_id, n.net)
  FROM (SELECT h.account_id, sum(h.amount)::text AS net FROM ledger.hold_entries h
         WHERE h.hold_id = t.id GROUP BY h.account_id) n`;

/** The transactions of the known keys among the pairs of principals `$1` and keys `$2`, each as every answer shows it. */
export const KNOWN_TRANSACTIONS_SQL = `SELECT json_agg(json_build_object('principal', t.principal,
    'idempotency_key', t.idempotency_key, 'request_hash', t.request_hash, 'transaction', ${TRANSACTION_JSON}))
  FROM ledger.transactions t
 WHERE (t.principal, t.idempotency_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`;

/** Known transactions (KNOWN_TRANSACTIONS_SQL's rows) by scopedKey. */
export const byScopedKey = (known: KnownTransaction[] | null | undefined) =>
  new Map(
    (known ?? []).map((k) => [scopedKey({ principal: k.principal, idempotencyKey: k.idempotency_key }), k]),
  );

/** The transactions of the known keys among `keys` (each a principal's), by scopedKey. */
export async function knownTransactions(
  db: Queryable,
  keys: Pick<NewTransaction, "principal" | "idempotencyKey">[],
): Promise<Map<string, KnownTransaction>> {
  const [row] = await queryRows<{ known: KnownTransaction[] | null }>(
    db,
    `SELECT (${KNOWN_TRANSACTIONS_SQL}) AS known`,
    keys.map((k) => k.principal),
    keys.map((k) => k.idempotencyKey),
  );
  return byScopedKey(row?.known);
}

/**
 * A known key's answer: its transaction as the first answer gave it. Only a
 * hold changes after that (its status is read from its resolution and the
 * clock); its key answers what placing it answered, `pending`, byte for byte.
 */
export function replayOf(original: KnownTransaction): PostOutcome {
  const { transaction } = original;
  const asAnswered =
    transaction.expires_at === null ? transaction : { ...transaction, status: "pending" as const };
  return { status: 200, transaction: asAnswered, originalHash: original.request_hash };
}

/** Why `tx` cannot be posted: an unknown account, or entries that do not sum to zero in a currency. */
function refusalOf(tx: NewTransaction, currencies: Record<string, string>): DomainError | null {
  const unknown = [...new Set(tx.entries.map((e) => e.account_id))].filter((id) => !(id in currencies));
  if (unknown.length) {
    return new DomainError(422, `unknown account${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`, {
      error: "UNKNOWN_ACCOUNT",
    });
  }
  const sums = unbalancedCurrencies(tx, currencies);
  if (sums.length) {
    return new DomainError(
      422,
      `entries must sum to zero in each currency: ${sums.map(([c, s]) => `${c} sums to ${s}`).join(", ")}`,
      { error: "UNBALANCED_TRANSACTION" },
    );
  }
  return null;
}

import { isoTimestampSql } from "@app/db";

/** The JSON of account row `a`, as the API returns it. */
export const ACCOUNT_JSON = `json_build_object(
  'id', a.id, 'name', a.name, 'type', a.type, 'currency', a.currency,
  -- The side a balance is naturally read on (debit: asset, expense); the balance stays the plain sum.
  'normal_balance', CASE WHEN a.type IN ('asset', 'expense') THEN 'debit' ELSE 'credit' END,
  'min_balance', a.min_balance, 'max_balance', a.max_balance, 'metadata', a.metadata,
  'created_at', ${isoTimestampSql("a.created_at")}, 'updated_at', ${isoTimestampSql("a.updated_at")})`;

/** The JSON of entry row `e`. */
export const ENTRY_JSON = `json_build_object(
  'id', e.id, 'transaction_id', e.transaction_id, 'account_id', e.account_id, 'currency', e.currency,
  'amount', e.amount, 'effective_date', e.effective_date, 'created_at', ${isoTimestampSql("e.created_at")})`;

/** The JSON of hold entry row `h` of hold `t`: an entry whose date and time are its hold's. */
const HOLD_ENTRY_JSON = `json_build_object(
  'id', h.id, 'transaction_id', h.hold_id, 'account_id', h.account_id, 'currency', h.currency,
  'amount', h.amount, 'effective_date', t.effective_date, 'created_at', ${isoTimestampSql("t.created_at")})`;

/**
 * The status of transaction row `t`, derived when read: a hold is posted or
 * voided by its resolution, else expired from expires_at on, else pending.
 */
export const STATUS_SQL = `CASE WHEN t.hold_expires_at IS NULL THEN 'posted'
  ELSE coalesce((SELECT CASE WHEN r.transaction_id IS NULL THEN 'voided' ELSE 'posted' END
                   FROM ledger.hold_resolutions r WHERE r.hold_id = t.id),
                CASE WHEN t.hold_expires_at <= now() THEN 'expired' ELSE 'pending' END) END`;

/**
 * The JSON of transaction row `t` with its entries in posted order (a hold's:
 * its hold entries), as GET and every replay answer it. A new post's answer
 * is built from the values written instead (insert-transactions.ts), to the
 * same bytes.
 */
export const TRANSACTION_JSON = `json_build_object(
  'id', t.id, 'idempotency_key', t.idempotency_key, 'description', t.description,
  'effective_date', t.effective_date, 'reverses_transaction_id', t.reverses_transaction_id,
  'status', ${STATUS_SQL}, 'hold_id', t.hold_id, 'expires_at', ${isoTimestampSql("t.hold_expires_at")},
  'metadata', t.metadata, 'created_at', ${isoTimestampSql("t.created_at")},
  'entries', CASE WHEN t.hold_expires_at IS NULL
    THEN (SELECT json_agg(${ENTRY_JSON} ORDER BY e.position) FROM ledger.entries e WHERE e.transaction_id = t.id)
    ELSE (SELECT json_agg(${HOLD_ENTRY_JSON} ORDER BY h.position) FROM ledger.hold_entries h WHERE h.hold_id = t.id) END)`;

/**
 * The values of a statement built with optional parts: `add` keeps a value
 * and answers its placeholder ($2, $3, ... after `first`), for the condition
 * that uses it.
 */
export function statementValues(...first: unknown[]) {
  const values = [...first];
  return {
    values,
    add(value: unknown): string {
      values.push(value);
      return `$${values.length}`;
    },
  };
}

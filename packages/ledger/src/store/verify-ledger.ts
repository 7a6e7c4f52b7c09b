import { inTransaction, type Database } from "@app/db";

export interface LedgerViolation {
  rule:
    | "transaction-unbalanced"
    | "currency-unbalanced"
    | "entry-without-transaction"
    | "transaction-too-few-entries"
    | "account-total-differs";
  /** The transaction, entry or currency concerned. */
  subject: string;
  detail: string;
}

const CHECKS: { rule: LedgerViolation["rule"]; sql: string }[] = [
  {
    rule: "transaction-unbalanced",
    sql: `SELECT transaction_id::text AS subject, currency || ' sums to ' || sum(amount) AS detail
            FROM (SELECT transaction_id, currency, amount FROM ledger.entries
                  UNION ALL SELECT hold_id, currency, amount FROM ledger.hold_entries) e
           GROUP BY transaction_id, currency HAVING sum(amount) <> 0`,
  },
  {
    rule: "currency-unbalanced",
    sql: `SELECT currency AS subject, 'all entries sum to ' || sum(amount) AS detail
            FROM ledger.entries GROUP BY currency HAVING sum(amount) <> 0`,
  },
  {
    rule: "entry-without-transaction",
    sql: `SELECT e.id::text AS subject, 'names transaction ' || e.transaction_id AS detail
            FROM ledger.entries e LEFT JOIN ledger.transactions t ON t.id = e.transaction_id WHERE t.id IS NULL`,
  },
  {
    rule: "entry-without-transaction",
    sql: `SELECT h.id::text AS subject, 'names hold ' || h.hold_id AS detail
            FROM ledger.hold_entries h LEFT JOIN ledger.transactions t ON t.id = h.hold_id AND t.hold_expires_at IS NOT NULL
           WHERE t.id IS NULL`,
  },
  {
    // A hold's entries are its hold entries.
    rule: "transaction-too-few-entries",
    sql: `SELECT t.id::text AS subject, count(e.id) || ' entries' AS detail
            FROM ledger.transactions t
            LEFT JOIN (SELECT id, transaction_id, false AS held FROM ledger.entries
                       UNION ALL SELECT id, hold_id, true FROM ledger.hold_entries) e
              ON e.transaction_id = t.id AND e.held = (t.hold_expires_at IS NOT NULL)
           GROUP BY t.id HAVING count(e.id) < 2`,
  },
  {
    // Partial sums are kept while an account has bounds: its latest, carried to now, must be what its
    // entries and open holds sum to.
    rule: "account-total-differs",
    sql: `SELECT a.id::text AS subject,
                 'kept ' || k.total || ' (held ' || k.debits || ' / ' || k.credits || '), entries and open holds ' ||
                 e.total || ' (held ' || h.debits || ' / ' || h.credits || ')' AS detail
            FROM ledger.accounts a
            JOIN LATERAL ledger.account_totals_at(a.id, now()) k ON true
            JOIN LATERAL (SELECT coalesce(sum(amount), 0) AS total FROM ledger.entries WHERE account_id = a.id) e ON true
            JOIN LATERAL ledger.held_between(a.id, now(), 'infinity', false) h ON true
           WHERE (a.min_balance IS NOT NULL OR a.max_balance IS NOT NULL)
             AND EXISTS (SELECT 1 FROM ledger.account_totals t WHERE t.account_id = a.id)
             AND (k.total, k.debits, k.credits) IS DISTINCT FROM (e.total, h.debits, h.credits)`,
  },
];

/** How long the checks may take together. */
const VERIFY_TIMEOUT_MS = 60 * 60_000;

/**
 * Scans the whole ledger for what the database's triggers should make
 * impossible: a transaction (a hold by its hold entries) or a currency that
 * does not sum to zero, an entry without its transaction or a hold entry
 * without its hold, a transaction with fewer than two entries, a bounded
 * account whose latest partial sums are not what its entries and open holds
 * sum to.
 *
 * Every check reads one snapshot (a read-only REPEATABLE READ transaction),
 * so a ledger that takes posts meanwhile is judged as it was at one instant.
 * Under READ COMMITTED each statement, and each statement inside the plpgsql
 * functions that carry partial sums forward, would see the posts committed
 * since the one before: a partial sum newer than the entries it is compared
 * with read as a violation.
 */
export async function verifyLedger(db: Database): Promise<LedgerViolation[]> {
  return inTransaction(
    db,
    async (tx) => {
      // Before any other statement of the transaction, or PostgreSQL refuses it.
      await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      const violations: LedgerViolation[] = [];
      for (const check of CHECKS) {
        const rows = await tx.query<{ subject: string; detail: string }>(check.sql);
        violations.push(...rows.map((row) => ({ rule: check.rule, ...row })));
      }
      return violations;
    },
    // A whole ledger takes a while: each statement keeps the database's statement timeout.
    { timeoutMs: VERIFY_TIMEOUT_MS },
  );
}

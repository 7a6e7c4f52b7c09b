import { inTransaction, queryRows, type Database, type Queryable } from "@app/db";
import { versionConflict, type VersionCheck } from "@app/rest/preconditions";
import { VERSION_SQL } from "./sql.ts";

/** One of a person's rows that a conditional write (If-Match...) goes over: an entry, a tailored version. */
export interface CheckedRow {
  /** Its table, whose rows have `id`, `user_id` and `updated_at` (the version). */
  table: string;
  id: string;
  userId: string;
  /** What it is, in the 412's words: "hobby entry", "tailored version". */
  what: string;
  /**
   * Called when there is no row to lock: throws the 404 of one that is not
   * there at all, and returns when it is there after all (written anew while
   * the lock was waited for), to be locked again.
   */
  whenMissing(tx: Queryable): Promise<unknown>;
}

/**
 * Locks the row in the transaction `tx` and throws the 412 unless `check`
 * (the request's If-Match...) passes for its version, so that what the
 * transaction writes next goes over the version checked and no other write
 * comes between. A row that is not there is its 404 whatever the check
 * (RFC 9110, 13.2.1).
 */
export async function lockCheckedVersion(tx: Queryable, row: CheckedRow, check: VersionCheck): Promise<void> {
  for (;;) {
    const [locked] = await queryRows<{ version: string }>(
      tx,
      `SELECT ${VERSION_SQL} AS version FROM ${row.table} t WHERE t.id = $1::uuid AND t.user_id = $2 FOR UPDATE`,
      row.id,
      row.userId,
    );
    if (locked) {
      if (!check(locked.version)) throw versionConflict(row.what, locked.version);
      return;
    }
    await row.whenMissing(tx);
  }
}

/**
 * Runs `write` on the row when `check` passes for its version, in one
 * transaction with the check (lockCheckedVersion); without a check, `write`
 * runs alone.
 */
export async function checkedWrite<T>(
  db: Database,
  row: CheckedRow,
  check: VersionCheck | undefined,
  write: (db: Queryable) => Promise<T>,
): Promise<T> {
  if (!check) return write(db);
  return inTransaction(db, async (tx) => {
    await lockCheckedVersion(tx, row, check);
    return write(tx);
  });
}

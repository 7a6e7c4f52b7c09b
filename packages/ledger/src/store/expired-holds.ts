import { queryRows, type Database } from "@app/db";

/**
 * Writes `hold.expired` for each hold that reached its expiry unresolved
 * since the last sweep, or that a transaction the last sweep could not see
 * committed expired (ledger.record_expired_holds, see the migrations
 * hold_expired_events and hold_expiry_sweep_by_snapshot), and answers how
 * many. Another instance's sweep under way, it writes nothing: the other one
 * does.
 */
export async function recordExpiredHolds(db: Database): Promise<number> {
  const [row] = await queryRows<{ written: number }>(db, `SELECT ledger.record_expired_holds() AS written`);
  return row!.written;
}

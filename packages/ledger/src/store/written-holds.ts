import type { Database } from "@app/db";
import type { Transaction } from "../schemas.ts";

/** What a post of a hold takes from it: its id, its description and its entries, none of which ever change. */
export type HeldTransaction = Pick<Transaction, "id" | "description" | "entries">;

/** How many holds written by this server are kept for their posts, per database (about 1 KB each). */
const WRITTEN_HOLDS_KEPT = 10_000;
const writtenHolds = new WeakMap<Database, Map<string, HeldTransaction>>();

/**
 * Keeps a hold this server just wrote, so that its post need not read it
 * first (a pair of a hold and its post then costs two statements, as two
 * posts do). Only what never changes is kept: whether the hold is still
 * pending is not, and need not be: the post's write is refused when the hold
 * was posted, voided or expired meanwhile, and a known key answers its
 * original, as for any post (post-checked.ts), so the answers are those of a
 * post that read first. The oldest go first past WRITTEN_HOLDS_KEPT.
 */
export function rememberWrittenHold(db: Database, hold: HeldTransaction): void {
  let kept = writtenHolds.get(db);
  if (!kept) writtenHolds.set(db, (kept = new Map()));
  kept.set(hold.id, { id: hold.id, description: hold.description, entries: hold.entries });
  if (kept.size > WRITTEN_HOLDS_KEPT) kept.delete(kept.keys().next().value!);
}

export const writtenHold = (db: Database, id: string) => writtenHolds.get(db)?.get(id);
export const forgetWrittenHold = (db: Database, id: string) => writtenHolds.get(db)?.delete(id);

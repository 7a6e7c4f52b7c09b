/**
 * Group commit: posts that arrive while the previous statement runs are
 * written together by the next one. On two cores a statement and a commit per
 * post cost PostgreSQL and the server more than the posts' own work. What it
 * guarantees:
 *
 * - Each post is all or nothing: its transaction and every entry, or none.
 * - A post is answered only after the commit that holds it.
 * - A statement the database refuses (an unknown account, an imbalance) writes
 *   nothing; the posts of it that check out are then written together again,
 *   and the rest take the checked path alone, which names what is wrong.
 * - Keys are inserted in sorted order, so two servers' statements cannot
 *   deadlock on each other's keys.
 * - At most BATCH_POSTS posts go in one statement; a chunk that fails fails its
 *   own posts only (the chunks before it are committed and answered).
 * - A statement that gets no answer within STATEMENT_TIMEOUT_MS fails its posts
 *   as a database outage (503): one stuck statement cannot hold the posts
 *   queued behind it for longer. A retry with the same key replays a post that
 *   was written after all.
 */
import { batchCalls, databaseErrorCode, withTimeout, type Database } from "@app/db";
import type { Transaction } from "../schemas.ts";
import {
  insertTransactions,
  REFUSED_POST,
  unbalancedCurrencies,
  type NewTransaction,
} from "./insert-transactions.ts";

const BATCH_POSTS = 100;
const STATEMENT_TIMEOUT_MS = 10_000;

/**
 * What became of a post: its JSON, null for a known key, "refused" (its
 * statement was refused and nothing was written) or the error its statement
 * failed with.
 */
export type GroupCommitOutcome = Transaction | null | "refused" | { failed: unknown };

/**
 * Failures that may belong to one post of a group rather than to the group:
 * bad data (22), constraints (23), a serialization failure or deadlock (40001,
 * 40P01). A group that fails so is refused, and its posts are checked apart.
 */
const POST_FAILURE = /^(22|23|40001$|40P01$)/;

const writers = new WeakMap<Database, (tx: NewTransaction) => Promise<GroupCommitOutcome>>();

let observer: ((posts: number) => void) | undefined;

/** Calls `observe` with the number of posts of every group written (for the metrics). */
export function observeGroupCommits(observe: (posts: number) => void): void {
  observer = observe;
}

/** Writes `tx` with the posts that arrive alongside it (one writer per database client). */
export function writeWithGroupCommit(db: Database, tx: NewTransaction): Promise<GroupCommitOutcome> {
  let write = writers.get(db);
  if (!write) {
    write = batchCalls((txs: NewTransaction[]) => writeGroup(db, txs));
    writers.set(db, write);
  }
  return write(tx);
}

async function writeGroup(
  db: Database,
  txs: NewTransaction[],
): Promise<Map<NewTransaction, GroupCommitOutcome>> {
  observer?.(txs.length);
  const outcomes = new Map<NewTransaction, GroupCommitOutcome>();
  for (let start = 0; start < txs.length; start += BATCH_POSTS) {
    const chunk = txs.slice(start, start + BATCH_POSTS);
    const written = await writeChunkThenItsGoodPosts(db, chunk).catch(
      (error: unknown) =>
        new Map<NewTransaction, GroupCommitOutcome>(chunk.map((tx) => [tx, { failed: error }])),
    );
    for (const [tx, outcome] of written) outcomes.set(tx, outcome);
  }
  return outcomes;
}

/** One statement for the chunk; when bad posts got it refused, one more for the posts that check out. */
async function writeChunkThenItsGoodPosts(
  db: Database,
  txs: NewTransaction[],
): Promise<Map<NewTransaction, GroupCommitOutcome>> {
  const written = await insertOrRefuse(db, txs);
  if (txs.length > 1 && [...written.values()].every((outcome) => outcome === "refused")) {
    const fine = await postsThatCheckOut(db, txs);
    if (fine.length > 0 && fine.length < txs.length)
      for (const [tx, outcome] of await insertOrRefuse(db, fine)) written.set(tx, outcome);
  }
  return written;
}

/** The statement's outcome for each post; a refusal on the posts' merits marks them all "refused". */
async function insertOrRefuse(
  db: Database,
  chunk: NewTransaction[],
): Promise<Map<NewTransaction, GroupCommitOutcome>> {
  try {
    return await withTimeout(insertTransactions(db, chunk), STATEMENT_TIMEOUT_MS);
  } catch (error) {
    const code = databaseErrorCode(error) ?? "";
    const refused = REFUSED_POST.has(code) || (chunk.length > 1 && POST_FAILURE.test(code));
    if (!refused) throw error;
    return new Map(chunk.map((tx) => [tx, "refused"]));
  }
}

/** The posts whose accounts all exist and whose entries balance in each currency. */
async function postsThatCheckOut(db: Database, txs: NewTransaction[]): Promise<NewTransaction[]> {
  const accountIds = [...new Set(txs.flatMap((tx) => tx.entries.map((e) => e.account_id)))];
  const [row] = await db.$queryRawUnsafe<{ currencies: Record<string, string> | null }[]>(
    `SELECT json_object_agg(id, currency) AS currencies FROM ledger.accounts WHERE id = ANY($1::uuid[])`,
    accountIds,
  );
  const currencies = row?.currencies ?? {};
  return txs.filter(
    (tx) =>
      tx.entries.every((e) => e.account_id in currencies) &&
      unbalancedCurrencies(tx, currencies).length === 0,
  );
}

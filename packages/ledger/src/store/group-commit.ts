/**
 * Group commit: posts that arrive while the previous statement runs are
 * written together by the next one. On two cores a statement and a commit per
 * post cost PostgreSQL and the server more than the posts' own work. What it
 * guarantees:
 *
 * - Each post is all or nothing: its transaction and every entry, or none.
 * - A post is answered only after the commit that holds it.
 * - A statement the database refuses (an unknown account, an imbalance) writes
 *   nothing; its posts are then checked together (post-checked.ts): the good
 *   ones are written together again, the others refused with what is wrong.
 *   When that statement is refused too (a hold posted by another writer in
 *   between), each post is checked and written alone.
 * - Keys are inserted in an order (insert-transactions.ts, INSERT_ORDER_SQL)
 *   in which two servers' statements cannot deadlock on each other's keys.
 * - At most BATCH_POSTS posts go in one statement; a chunk that fails fails its
 *   own posts only (the chunks before it are committed and answered).
 * - A chunk whose statements get no answer within STATEMENT_TIMEOUT_MS fails its
 *   posts as a database outage (503), and the pipelined connection is closed
 *   (the chunk sent behind it on that connection fails with it): one stuck
 *   chunk cannot hold the posts queued behind it for longer. A retry with the
 *   same key replays a post that was written after all.
 *
 * The statements go to the database's pipelined connection (pipelinedQueries):
 * once OVERLAP_FROM posts wait, their statement is sent while the last one
 * still runs, and PostgreSQL starts it as that one commits, instead of after
 * the round trip, the answers and the next requests read in between (measured:
 * docs/benchmarks.md, "Posting"). Behind a pooler, with no pipelined
 * connection, one statement at a time goes through the pool.
 */
import {
  batchCallsPerClient,
  databaseErrorCode,
  mayBeOneWritersFailure,
  pipelinedQueries,
  withTimeout,
  type Database,
} from "@app/db";
import { firstOfEachKey, REFUSED_POST, type NewTransaction } from "./insert-transactions.ts";
import { postChecked, writeCheckedPosts, type PostOutcome } from "./post-checked.ts";

const BATCH_POSTS = 100;
const STATEMENT_TIMEOUT_MS = 10_000;
/**
 * Posts waiting that are sent while a statement runs; fewer wait for its
 * answer. A statement costs PostgreSQL about as much as five posts in it,
 * so a small one sent early costs more than the wait it saves (measured:
 * docs/benchmarks.md, "Posting").
 */
const OVERLAP_FROM = 8;

/**
 * What became of a post: its outcome (a key known before, or taken by another
 * post of its group, answers that transaction), null for a later post of a key
 * whose statement was refused (the caller checks it alone), or the error its
 * statement failed with.
 */
export type GroupCommitOutcome = PostOutcome | null | { failed: unknown };

let observer: ((posts: number) => void) | undefined;

/** Calls `observe` with the number of posts of every group-commit statement (for the metrics). */
export function observeGroupCommits(observe: (posts: number) => void): void {
  observer = observe;
}

const overlapping = batchCallsPerClient(writeGroup, { overlapFrom: OVERLAP_FROM });
const oneAtATime = batchCallsPerClient(writeGroup);

/** Writes `tx` with the posts that arrive alongside it (one writer per database client). */
export function writeWithGroupCommit(db: Database, tx: NewTransaction): Promise<GroupCommitOutcome> {
  return (pipelinedQueries(db) ? overlapping : oneAtATime)(db, tx);
}

async function writeGroup(
  db: Database,
  txs: NewTransaction[],
): Promise<Map<NewTransaction, GroupCommitOutcome>> {
  const outcomes = new Map<NewTransaction, GroupCommitOutcome>();
  for (let start = 0; start < txs.length; start += BATCH_POSTS) {
    const chunk = txs.slice(start, start + BATCH_POSTS);
    observer?.(chunk.length);
    const written = await withTimeout(writeChunk(db, chunk), STATEMENT_TIMEOUT_MS, () =>
      pipelinedQueries(db)?.reset(),
    ).catch(
      (error: unknown) =>
        new Map<NewTransaction, GroupCommitOutcome>(chunk.map((tx) => [tx, { failed: error }])),
    );
    for (const [tx, outcome] of written) outcomes.set(tx, outcome);
  }
  return outcomes;
}

/** One statement for the chunk; when the database refuses it on a post's merits, the chunk's posts checked. */
async function writeChunk(
  db: Database,
  txs: NewTransaction[],
): Promise<Map<NewTransaction, GroupCommitOutcome>> {
  try {
    return await writeCheckedPosts(pipelinedQueries(db) ?? db, txs);
  } catch (error) {
    if (!refusedOnAPostsMerits(error, txs)) throw error;
    // A repeated key's later posts answer as replays (null) of its first.
    const firsts = firstOfEachKey(txs);
    const checked = await postChecked(db, firsts).catch(async (checkedError: unknown) => {
      // Refused again (a hold resolved by another writer between check and write): each alone.
      if (!refusedOnAPostsMerits(checkedError, firsts)) throw checkedError;
      return new Map(await Promise.all(firsts.map(async (tx) => [tx, await postAlone(db, tx)] as const)));
    });
    return new Map(txs.map((tx) => [tx, checked.get(tx) ?? null]));
  }
}

/**
 * Whether the database refused a statement of `txs` for what one of them is:
 * a group that fails so is refused, and its posts are checked apart.
 */
function refusedOnAPostsMerits(error: unknown, txs: NewTransaction[]): boolean {
  return (
    REFUSED_POST.has(databaseErrorCode(error) ?? "") || (txs.length > 1 && mayBeOneWritersFailure(error))
  );
}

/** A post checked and written by itself; a failure is its own. */
async function postAlone(db: Database, tx: NewTransaction): Promise<GroupCommitOutcome> {
  try {
    return (await postChecked(db, [tx])).get(tx)!;
  } catch (error) {
    return { failed: error };
  }
}

import type pg from "pg";

/** How many statements of other sessions wait for a lock that `session`'s open transaction holds. */
export async function statementsBlockedBy(session: pg.Client): Promise<number> {
  // In a transaction, the sessions' activity is otherwise read once and kept until it ends.
  await session.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await session.query<{ blocked: number }>(
    "SELECT count(*)::int AS blocked FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))",
  );
  return rows[0]!.blocked;
}

/**
 * Until at least `count` statements of other sessions wait for a lock that
 * `session`'s open transaction holds (at most 5 s): a test can then commit and
 * know the other statements went on after its change.
 */
export async function untilBlockedBy(session: pg.Client, count = 1): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    if ((await statementsBlockedBy(session)) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${count} statements waited for the session's lock`);
}

/**
 * Until at least `count` statements wait for a lock held by the statements
 * that wait for `session` (at most 5 s): those held up behind a write that is
 * itself held by the test.
 */
export async function untilQueuedBehind(session: pg.Client, count: number): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    await session.query("SELECT pg_stat_clear_snapshot()");
    const { rows } = await session.query<{ queued: number }>(
      `SELECT count(*)::int AS queued FROM pg_stat_activity behind
        WHERE EXISTS (SELECT 1 FROM pg_stat_activity held
                       WHERE pg_backend_pid() = ANY(pg_blocking_pids(held.pid))
                         AND held.pid = ANY(pg_blocking_pids(behind.pid)))`,
    );
    if (rows[0]!.queued >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${count} statements waited behind the session's lock`);
}

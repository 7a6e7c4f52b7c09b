import type pg from "pg";

/**
 * Until a statement of another session waits for a lock that `session`'s open
 * transaction holds (at most 5 s): a test can then commit and know the other
 * statement went on after its change.
 */
export async function untilBlockedBy(session: pg.Client): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const { rows } = await session.query(
      "SELECT 1 FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))",
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no statement waited for the session's lock");
}

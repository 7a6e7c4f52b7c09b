import type { Database } from "@app/db";

/** A user's requests in their current one-minute window, after this batch, and the seconds left in it. */
export interface WindowCount {
  count: number;
  secondsLeft: number;
}

/**
 * Counts requests (one user id per request, repeated for several) in each
 * user's one-minute window, which starts with their first request after the
 * last one ended. One statement for a whole batch; users in sorted order, so
 * that two servers' statements cannot deadlock on each other's rows.
 */
const COUNT_REQUESTS = `
  WITH hits AS (SELECT user_id, count(*)::int AS n FROM unnest($1::text[]) AS h(user_id) GROUP BY user_id)
  INSERT INTO resume.rate_limits AS r (user_id, window_start, count)
  SELECT user_id, now(), n FROM hits ORDER BY user_id
  ON CONFLICT (user_id) DO UPDATE SET
    window_start = CASE WHEN r.window_start > now() - interval '1 minute' THEN r.window_start ELSE EXCLUDED.window_start END,
    count = CASE WHEN r.window_start > now() - interval '1 minute' THEN r.count + EXCLUDED.count ELSE EXCLUDED.count END
  RETURNING user_id, count, ceil(extract(epoch FROM r.window_start + interval '1 minute' - now()))::int AS seconds_left`;

export async function countRequests(db: Database, userIds: string[]): Promise<Map<string, WindowCount>> {
  const rows = await db.$queryRawUnsafe<{ user_id: string; count: number; seconds_left: number }[]>(
    COUNT_REQUESTS,
    userIds,
  );
  return new Map(rows.map((r) => [r.user_id, { count: r.count, secondsLeft: r.seconds_left }]));
}

/**
 * countRequests, and each user's resume version (the migration resume_versions: a
 * trigger moves it on every change to their resume; null without one) read
 * in the same statement: GET /me/resume pays one round trip for both.
 */
export async function countRequestsAndReadVersions(
  db: Database,
  userIds: string[],
): Promise<Map<string, WindowCount & { version: string | null }>> {
  const rows = await db.$queryRawUnsafe<
    { user_id: string; count: number; seconds_left: number; version: string | null }[]
  >(
    `WITH counted AS (${COUNT_REQUESTS})
     SELECT c.user_id, c.count, c.seconds_left, v.version::text AS version
       FROM counted c LEFT JOIN resume.versions v ON v.user_id = c.user_id`,
    userIds,
  );
  return new Map(
    rows.map((r) => [r.user_id, { count: r.count, secondsLeft: r.seconds_left, version: r.version }]),
  );
}

import type { Database } from "@app/db";

/** A lease of requests in a user's window: the window's count before it, and the milliseconds left in the window. */
interface Lease {
  countBefore: number;
  msLeft: number;
}

/**
 * Adds `wanted` to each user's request count in their current one-minute
 * window (which starts with their first lease after the last one ended), in
 * one statement for them all; users in sorted order, so that two servers'
 * statements cannot deadlock on each other's rows. The count only grows:
 * what a lease was granted follows from the count before it.
 */
export async function leaseRequests(
  db: Database,
  leases: { userId: string; wanted: number }[],
): Promise<Map<string, Lease>> {
  const rows = await db.$queryRawUnsafe<
    { user_id: string; count: number; wanted: number; ms_left: number }[]
  >(
    `INSERT INTO resume.rate_limits AS r (user_id, window_start, count)
     SELECT user_id, now(), wanted FROM unnest($1::text[], $2::int[]) AS l(user_id, wanted) ORDER BY user_id
     ON CONFLICT (user_id) DO UPDATE SET
       window_start = CASE WHEN r.window_start > now() - interval '1 minute' THEN r.window_start ELSE EXCLUDED.window_start END,
       count = CASE WHEN r.window_start > now() - interval '1 minute' THEN r.count + EXCLUDED.count ELSE EXCLUDED.count END
     RETURNING user_id, count, ceil(extract(epoch FROM r.window_start + interval '1 minute' - now()) * 1000)::int AS ms_left`,
    leases.map((l) => l.userId),
    leases.map((l) => l.wanted),
  );
  const wanted = new Map(leases.map((l) => [l.userId, l.wanted]));
  return new Map(
    rows.map((r) => [r.user_id, { countBefore: r.count - wanted.get(r.user_id)!, msLeft: r.ms_left }]),
  );
}

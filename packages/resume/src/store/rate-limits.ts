import { queryRows, type Database } from "@app/db";

/** A lease of requests in a user's window: the window's count before it, and the milliseconds left in the window. */
interface Lease {
  countBefore: number;
  msLeft: number;
}

/** Where one kind of request is counted: a table of per-key windows and its key column. */
export interface RequestCounter {
  table: string;
  key: string;
}

/** The signed-in API's requests, per user. */
export const USER_REQUESTS: RequestCounter = { table: "resume.rate_limits", key: "user_id" };
/** The public pages' requests, per client address. */
export const CLIENT_ADDRESS_REQUESTS: RequestCounter = {
  table: "resume.public_rate_limits",
  key: "client_address",
};

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
  { table, key }: RequestCounter = USER_REQUESTS,
): Promise<Map<string, Lease>> {
  const rows = await queryRows<{ user_id: string; count: number; ms_left: number }>(
    db,
    `INSERT INTO ${table} AS r (${key}, window_start, count)
     SELECT k, now(), wanted FROM unnest($1::text[], $2::int[]) AS l(k, wanted) ORDER BY k
     ON CONFLICT (${key}) DO UPDATE SET
       window_start = CASE WHEN r.window_start > now() - interval '1 minute' THEN r.window_start ELSE EXCLUDED.window_start END,
       count = CASE WHEN r.window_start > now() - interval '1 minute' THEN r.count + EXCLUDED.count ELSE EXCLUDED.count END
     RETURNING r.${key} AS user_id, count, ceil(extract(epoch FROM r.window_start + interval '1 minute' - now()) * 1000)::int AS ms_left`,
    leases.map((l) => l.userId),
    leases.map((l) => l.wanted),
  );
  const wanted = new Map(leases.map((l) => [l.userId, l.wanted]));
  return new Map(
    rows.map((r) => [r.user_id, { countBefore: r.count - wanted.get(r.user_id)!, msLeft: r.ms_left }]),
  );
}

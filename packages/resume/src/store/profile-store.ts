import { isoTimestampSql, queryRows, type Database, type Queryable } from "@app/db";
import type { Profile, ProfileInput } from "../schemas/profile.ts";
import { castParameters, columnValues, PROFILE_COLUMNS, profileJson } from "./sql.ts";

/** The caller's profile; null before the first PUT. */
export async function getProfile(db: Database, userId: string): Promise<Profile | null> {
  const [row] = await queryRows<{ profile: Profile }>(
    db,
    `SELECT ${profileJson()} AS profile FROM resume.profiles t WHERE t.user_id = $1`,
    userId,
  );
  return row?.profile ?? null;
}

/**
 * Creates or replaces the caller's profile; omitted optional fields are
 * cleared. Answers it as GET /me/profile does, built here from the values
 * written (stored as they are: `text` refuses what PostgreSQL would change)
 * and the row's two times: JSON built in PostgreSQL cost every write about
 * 0.1 ms (docs/benchmarks.md, "Resume reads and writes").
 */
export async function putProfile(db: Queryable, userId: string, fields: ProfileInput): Promise<Profile> {
  const columns = Object.keys(PROFILE_COLUMNS);
  const [row] = await queryRows<{ created_at: string; updated_at: string }>(
    db,
    `INSERT INTO resume.profiles AS t (user_id, ${columns.join(", ")})
     VALUES ($1, ${castParameters(PROFILE_COLUMNS, 2).join(", ")})
     ON CONFLICT (user_id) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(", ")}, updated_at = now()
     RETURNING ${isoTimestampSql("t.created_at")} AS created_at, ${isoTimestampSql("t.updated_at")} AS updated_at`,
    userId,
    ...columnValues(PROFILE_COLUMNS, fields),
  );
  return {
    entity_type: "profile",
    pk: `USER#${userId}`,
    sk: "PROFILE",
    ...fields,
    links: inJsonbKeyOrder(fields.links),
    created_at: row!.created_at,
    updated_at: row!.updated_at,
  };
}

/**
 * The links as a `jsonb` column gives them back: keys shorter in UTF-8 bytes
 * first, then in byte order (PostgreSQL's own order for an object's keys).
 */
function inJsonbKeyOrder(links: Record<string, string>): Record<string, string> {
  const keys = Object.keys(links).map((key) => [key, Buffer.from(key)] as const);
  keys.sort(([, a], [, b]) => a.length - b.length || Buffer.compare(a, b));
  return Object.fromEntries(keys.map(([key]) => [key, links[key]!]));
}

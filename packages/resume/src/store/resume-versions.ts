import { queryRows, type Database } from "@app/db";

/**
 * The person's (`$1`) resume version, as a column of the statement that reads
 * their resume: the version of the rows that statement reads.
 */
export const RESUME_VERSION_SQL = "(SELECT version::text FROM resume.versions WHERE user_id = $1)";

/**
 * The current resume version of each person (a trigger moves it on every
 * change to their resume; see the migration resume_versions), or null for
 * someone without one: nothing written yet, or their row was removed by hand.
 * Every GET /me/resume waits on it, so it goes to the pool without Prisma (queryRows).
 */
export async function readResumeVersions(
  db: Database,
  userIds: readonly string[],
): Promise<Map<string, string | null>> {
  const rows = await queryRows<{ user_id: string; version: string }>(
    db,
    `SELECT user_id, version::text AS version FROM resume.versions WHERE user_id = ANY($1::text[])`,
    userIds,
  );
  const versions = new Map<string, string | null>(userIds.map((id) => [id, null]));
  for (const row of rows) versions.set(row.user_id, row.version);
  return versions;
}

import type { Database } from "@app/db";

/**
 * The current resume version of each person (a trigger moves it on every
 * change to their resume; see the migration resume_versions); "0" for someone
 * whose resume was never written.
 */
export async function readResumeVersions(
  db: Database,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await db.$queryRawUnsafe<{ user_id: string; version: string }[]>(
    `SELECT user_id, version::text AS version FROM resume.versions WHERE user_id = ANY($1::text[])`,
    userIds,
  );
  const versions = new Map(userIds.map((id) => [id, "0"]));
  for (const row of rows) versions.set(row.user_id, row.version);
  return versions;
}

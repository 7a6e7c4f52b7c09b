import { queryRows, type Database } from "@app/db";

/**
 * The person's (`$1`) resume version, as a column of the statement that reads
 * their resume: the version of the rows that statement reads.
 */
export const RESUME_VERSION_SQL = "(SELECT version::text FROM resume.versions WHERE user_id = $1)";

/** A person's current resume version, and the one its last move replaced (null before it first moved). */
export interface ResumeVersion {
  version: string;
  previous: string | null;
}

/**
 * The current resume version of each person (a trigger moves it on every
 * change to their resume; see the migrations resume_versions and
 * resume_previous_version), or null for someone without one: nothing written
 * yet, or their row was removed by hand. Every GET /me/resume waits on it, so
 * it goes to the pool without Prisma (queryRows).
 */
export async function readResumeVersions(
  db: Database,
  userIds: readonly string[],
): Promise<Map<string, ResumeVersion | null>> {
  const rows = await queryRows<{ user_id: string } & ResumeVersion>(
    db,
    `SELECT user_id, version::text AS version, previous_version::text AS previous
       FROM resume.versions WHERE user_id = ANY($1::text[])`,
    userIds,
  );
  const versions = new Map<string, ResumeVersion | null>(userIds.map((id) => [id, null]));
  for (const { user_id, version, previous } of rows) versions.set(user_id, { version, previous });
  return versions;
}

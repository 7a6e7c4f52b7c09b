import { COLLECTIONS } from "../collections.ts";
import type { WholeResume } from "../schemas/whole-resume.ts";
import { listJson, profileJson, type Queryable } from "./sql.ts";

/** The whole resume in one SQL statement: the profile (or null) and every collection in its order. */
const WHOLE_RESUME_SQL = `SELECT json_build_object(
  'profile', (SELECT ${profileJson()} FROM resume.profiles t WHERE t.user_id = $1),
  ${COLLECTIONS.map((c) => `'${c.name}', ${listJson(c)}`).join(",\n  ")}
) AS resume`;

export async function getWholeResume(db: Queryable, userId: string): Promise<WholeResume> {
  const [row] = await db.$queryRawUnsafe<{ resume: WholeResume }[]>(WHOLE_RESUME_SQL, userId);
  return row!.resume;
}

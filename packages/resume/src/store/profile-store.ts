import type { Database } from "@app/db";
import type { Queryable } from "./sql.ts";
import type { Profile, ProfileInput } from "../schemas/profile.ts";
import { castParameters, columnValues, jsonRows, PROFILE_COLUMNS, profileJson } from "./sql.ts";

/** The caller's profile; null before the first PUT. */
export async function getProfile(db: Database, userId: string): Promise<Profile | null> {
  const [row] = await jsonRows<{ profile: Profile }>(
    db,
    `SELECT ${profileJson()} AS profile FROM resume.profiles t WHERE t.user_id = $1`,
    userId,
  );
  return row?.profile ?? null;
}

/** Creates or replaces the caller's profile; omitted optional fields are cleared. */
export async function putProfile(db: Queryable, userId: string, fields: ProfileInput): Promise<Profile> {
  const columns = Object.keys(PROFILE_COLUMNS);
  const [row] = await jsonRows<{ profile: Profile }>(
    db,
    `INSERT INTO resume.profiles AS t (user_id, ${columns.join(", ")})
     VALUES ($1, ${castParameters(PROFILE_COLUMNS, 2).join(", ")})
     ON CONFLICT (user_id) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(", ")}, updated_at = now()
     RETURNING ${profileJson()} AS profile`,
    userId,
    ...columnValues(PROFILE_COLUMNS, fields),
  );
  return row!.profile;
}

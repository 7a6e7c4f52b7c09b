import { queryRows, type Queryable } from "@app/db";
import { COLLECTIONS, type Collection } from "../collections.ts";
import type { KeptJsonResume } from "../json-resume/kept-json-resume.ts";
import type { WholeResume } from "../schemas/whole-resume.ts";
import { tableOf } from "./collection-tables.ts";
import { RESUME_VERSION_SQL } from "./resume-versions.ts";
import { listJson, profileJson } from "./sql.ts";

/**
 * The whole resume as one JSON value: the profile (or null) and every collection in its order;
 * `entriesWhere` narrows each collection's entries (alias `t`; a tailored version's choice).
 */
export const wholeResumeJson = (entriesWhere: (collection: Collection) => string = () => "true") =>
  `json_build_object(
  'profile', (SELECT ${profileJson()} FROM resume.profiles t WHERE t.user_id = $1),
  ${COLLECTIONS.map((c) => `'${c.name}', ${listJson(c, entriesWhere(c))}`).join(",\n  ")}
)`;
const WHOLE_RESUME_JSON = wholeResumeJson();
const WHOLE_RESUME_SQL = `SELECT ${WHOLE_RESUME_JSON} AS resume, ${RESUME_VERSION_SQL} AS resume_version`;

/** The whole resume and what the last JSON Resume import kept, read together so that they agree. */
const WHOLE_RESUME_AND_KEPT_SQL = `SELECT ${WHOLE_RESUME_JSON} AS resume, ${RESUME_VERSION_SQL} AS resume_version,
  (SELECT document FROM resume.json_resume_documents WHERE user_id = $1) AS document,
  (SELECT coalesce(json_object_agg(k.id, k.json_resume), '{}') FROM (
    ${COLLECTIONS.map((c) => `SELECT id, json_resume FROM ${tableOf(c).table} WHERE user_id = $1 AND json_resume IS NOT NULL`).join("\n    UNION ALL ")}
  ) AS k) AS items`;

export async function getWholeResume(db: Queryable, userId: string): Promise<WholeResume> {
  return (await getWholeResumeAndVersion(db, userId)).resume;
}

/** The resume and its version (null: none yet), read by one statement. */
export async function getWholeResumeAndVersion(
  db: Queryable,
  userId: string,
): Promise<{ resume: WholeResume; resumeVersion: string | null }> {
  const [row] = await queryRows<{ resume: WholeResume; resume_version: string | null }>(
    db,
    WHOLE_RESUME_SQL,
    userId,
  );
  return { resume: row!.resume, resumeVersion: row!.resume_version };
}

/** The resume, what its last JSON Resume import kept (undefined when it came otherwise) and its version. */
export async function getWholeResumeAndKept(
  db: Queryable,
  userId: string,
): Promise<{ resume: WholeResume; kept?: KeptJsonResume; resumeVersion: string | null }> {
  const [row] = await queryRows<{
    resume: WholeResume;
    resume_version: string | null;
    document: KeptJsonResume["document"] | null;
    items: KeptJsonResume["items"];
  }>(db, WHOLE_RESUME_AND_KEPT_SQL, userId);
  const { resume, resume_version, document, items } = row!;
  return { resume, kept: document ? { document, items } : undefined, resumeVersion: resume_version };
}

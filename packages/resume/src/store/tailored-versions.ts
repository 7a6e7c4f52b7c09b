import { randomUUID } from "node:crypto";
import {
  inTransaction,
  isoTimestampSql,
  nextUpdatedAtOf,
  queryRows,
  type Database,
  type Queryable,
} from "@app/db";
import { DomainError, invalidRequestError } from "@app/rest/errors";
import type { VersionCheck } from "@app/rest/preconditions";
import { COLLECTIONS, type Collection } from "../collections.ts";
import type { WholeResume } from "../schemas/whole-resume.ts";
import type { TailoredVersion, TailoredVersionInput } from "../schemas/tailored-version.ts";
import { checkedWrite, lockCheckedVersion, type CheckedRow } from "./checked-write.ts";
import { createOnce } from "./create-once.ts";
import { tableOf } from "./collection-tables.ts";
import { wholeResumeJson } from "./resume-store.ts";
import { RESUME_VERSION_SQL } from "./resume-versions.ts";
import { advisoryXactLock } from "./sql.ts";

/** Versions one person may hold at once; the next create answers 409, as a full collection does. */
export const TAILORED_VERSIONS_PER_PERSON = 20;

/** Whether entry `t` of `collection` is one that version `v` shows. */
const shownBy = (collection: Collection) =>
  `(jsonb_typeof(v.include -> '${collection.name}') <> 'array' OR (v.include -> '${collection.name}') ? t.id::text)`;

/**
 * A version as the API answers it (alias `v`): each list holds the ids of
 * entries that still exist, in their collection's order, so a deleted entry
 * has left it.
 */
const VERSION_JSON = `json_build_object(
  'id', v.id,
  'name', v.name,
  'headline', v.headline,
  'summary', v.summary,
  'theme', v.theme,
  'hide_email', v.hide_email,
  'include', json_build_object(${COLLECTIONS.map((c) => {
    const { table, orderBy } = tableOf(c);
    return `'${c.name}', CASE WHEN jsonb_typeof(v.include -> '${c.name}') = 'array'
      THEN (SELECT coalesce(json_agg(t.id ORDER BY ${orderBy}), '[]'::json) FROM ${table} t
             WHERE t.user_id = v.user_id AND ${shownBy(c)})
      ELSE to_json('all'::text) END`;
  }).join(",\n    ")}),
  'created_at', ${isoTimestampSql("v.created_at")},
  'updated_at', ${isoTimestampSql("v.updated_at")})`;

/** The version `$2` of the person `$1` and its resume, in one statement (no row: no such version of theirs). */
const TAILORED_RESUME_SQL = `SELECT ${VERSION_JSON} AS version, ${wholeResumeJson(shownBy)} AS resume,
  ${RESUME_VERSION_SQL} AS resume_version FROM resume.tailored_versions v WHERE v.id = $2::uuid AND v.user_id = $1`;

/** Every entry id of the person (`$1`) with its collection, to check a version's lists against. */
const ENTRY_IDS_SQL = COLLECTIONS.map(
  (c) => `SELECT '${c.name}' AS collection, id::text AS id FROM ${tableOf(c).table} WHERE user_id = $1`,
).join(" UNION ALL ");

const notFound = () => new DomainError(404, "no tailored version with that id");

/**
 * A version's column values in the order both writes take them (name, headline, summary, theme,
 * hide_email, include); lists as given, without repeats (their order never counts: entries show in
 * their collection's order).
 */
function columnValuesOf(input: TailoredVersionInput): unknown[] {
  const include = Object.fromEntries(
    COLLECTIONS.map((c) => {
      const choice = input.include[c.name];
      return [c.name, choice === "all" ? "all" : [...new Set(choice.map(entryIdOf))]];
    }),
  );
  return [input.name, input.headline, input.summary, input.theme, input.hide_email, JSON.stringify(include)];
}

/** A listed id as the entry's own: a uuid is the same in capitals, as in an entry's URL. */
const entryIdOf = (id: string) => id.toLowerCase();

/** A 400 at the path of every listed id that is not one of the person's entries of that collection. */
async function refuseForeignIds(db: Queryable, userId: string, input: TailoredVersionInput): Promise<void> {
  const listed = COLLECTIONS.flatMap((c) => {
    const choice = input.include[c.name];
    return choice === "all"
      ? []
      : choice.map((id, index) => ({ collection: c.name, index, id: entryIdOf(id) }));
  });
  if (listed.length === 0) return;
  const unknown = await queryRows<{ collection: string; index: number }>(
    db,
    `SELECT l.collection, l.index FROM unnest($2::text[], $3::int[], $4::text[]) AS l(collection, index, id)
      WHERE NOT EXISTS (SELECT 1 FROM (${ENTRY_IDS_SQL}) e WHERE e.collection = l.collection AND e.id = l.id)
      ORDER BY l.collection, l.index`,
    userId,
    listed.map((l) => l.collection),
    listed.map((l) => l.index),
    listed.map((l) => l.id),
  );
  if (unknown.length === 0) return;
  const issues = unknown.map((u) => ({
    path: `include.${u.collection}.${u.index}`,
    message: `is not the id of one of your ${u.collection} entries`,
  }));
  throw invalidRequestError(issues);
}

/**
 * Makes a version; one past TAILORED_VERSIONS_PER_PERSON is a 409. Retry-safe under an Idempotency-Key
 * (createOnce).
 */
export function createTailoredVersion(
  db: Database,
  userId: string,
  input: TailoredVersionInput,
  idempotencyKey: string | null = null,
): Promise<{ made: TailoredVersion; replayed: boolean }> {
  return createOnce(db, {
    userId,
    idempotencyKey,
    route: "versions",
    what: "version",
    request: input,
    // The lock makes the count and the insert one step, so concurrent creates cannot pass the cap.
    lock: advisoryXactLock(`tailored_versions:${userId}`),
    make: async (tx) => {
      await refuseForeignIds(tx, userId, input);
      const [row] = await tx.query<{ version: TailoredVersion }>(
        `INSERT INTO resume.tailored_versions AS v (id, user_id, name, headline, summary, theme, hide_email, include)
         SELECT $1::uuid, $2, $3, $4, $5, $6, $7, $8::jsonb
          WHERE (SELECT count(*) FROM resume.tailored_versions WHERE user_id = $2) < ${TAILORED_VERSIONS_PER_PERSON}
         RETURNING ${VERSION_JSON} AS version`,
        randomUUID(),
        userId,
        ...columnValuesOf(input),
      );
      if (!row) {
        throw new DomainError(
          409,
          `at most ${TAILORED_VERSIONS_PER_PERSON} tailored versions; delete one first`,
        );
      }
      return row.version;
    },
  });
}

/** The person's versions, oldest first (the order they were made in). */
export async function listTailoredVersions(db: Queryable, userId: string): Promise<TailoredVersion[]> {
  const [row] = await queryRows<{ items: TailoredVersion[] }>(
    db,
    `SELECT coalesce(json_agg(${VERSION_JSON} ORDER BY v.created_at, v.id), '[]'::json) AS items
       FROM resume.tailored_versions v WHERE v.user_id = $1`,
    userId,
  );
  return row!.items;
}

export async function getTailoredVersion(
  db: Queryable,
  userId: string,
  id: string,
): Promise<TailoredVersion> {
  const [row] = await queryRows<{ version: TailoredVersion }>(
    db,
    `SELECT ${VERSION_JSON} AS version FROM resume.tailored_versions v WHERE v.id = $1::uuid AND v.user_id = $2`,
    id,
    userId,
  );
  if (!row) throw notFound();
  return row.version;
}

/** The version's row, for a conditional write (checked-write.ts); not there to lock, its 404. */
const checkedVersionRow = (userId: string, id: string): CheckedRow => ({
  table: "resume.tailored_versions",
  id,
  userId,
  what: "tailored version",
  whenMissing: (tx) => getTailoredVersion(tx, userId, id),
});

/**
 * Replaces every field of a version (left out: null, false or "all"). `check`
 * is the request's If-Match... (checked-write.ts), which goes after the lists'
 * check: a body that would be refused is its 400 whatever the precondition.
 */
export async function replaceTailoredVersion(
  db: Database,
  userId: string,
  id: string,
  input: TailoredVersionInput,
  check?: VersionCheck,
): Promise<TailoredVersion> {
  const replaced = await inTransaction(db, async (tx) => {
    await refuseForeignIds(tx, userId, input);
    if (check) await lockCheckedVersion(tx, checkedVersionRow(userId, id), check);
    const [row] = await tx.query<{ version: TailoredVersion }>(
      `UPDATE resume.tailored_versions AS v
          SET name = $3, headline = $4, summary = $5, theme = $6, hide_email = $7, include = $8::jsonb,
              updated_at = ${nextUpdatedAtOf("v")}
        WHERE v.id = $1::uuid AND v.user_id = $2
       RETURNING ${VERSION_JSON} AS version`,
      id,
      userId,
      ...columnValuesOf(input),
    );
    return row?.version;
  });
  if (!replaced) throw notFound();
  return replaced;
}

/**
 * Deletes a version and its share links (their pages are 404 at once);
 * `check` is the request's If-Match... (checked-write.ts).
 */
export async function deleteTailoredVersion(
  db: Database,
  userId: string,
  id: string,
  check?: VersionCheck,
): Promise<void> {
  const deleted = await checkedWrite(db, checkedVersionRow(userId, id), check, (db) =>
    queryRows(
      db,
      `DELETE FROM resume.tailored_versions WHERE id = $1::uuid AND user_id = $2 RETURNING true`,
      id,
      userId,
    ),
  );
  if (deleted.length === 0) throw notFound();
}

/**
 * A version and its resume, read together by one statement: the entries it
 * shows, its headline and summary over the profile's, the email left out when
 * it hides it.
 */
export async function getTailoredResume(
  db: Queryable,
  userId: string,
  id: string,
): Promise<{ version: TailoredVersion; resume: WholeResume; resumeVersion: string | null }> {
  const [row] = await queryRows<{
    version: TailoredVersion;
    resume: WholeResume;
    resume_version: string | null;
  }>(db, TAILORED_RESUME_SQL, userId, id);
  if (!row) throw notFound();
  return {
    version: row.version,
    resume: tailored(row.resume, row.version),
    resumeVersion: row.resume_version,
  };
}

/**
 * The version's profile over the person's. The goals summary opens the Goals
 * section, so it shows only where the version shows goals: with `"all"`, or
 * with at least one of those it lists (`[]` leaves the section out whole).
 */
function tailored(resume: WholeResume, version: TailoredVersion): WholeResume {
  const { profile } = resume;
  if (!profile) return resume;
  const showsGoals = version.include.goals === "all" || resume.goals.length > 0;
  return {
    ...resume,
    profile: {
      ...profile,
      headline: version.headline ?? profile.headline,
      summary: version.summary ?? profile.summary,
      email: version.hide_email ? null : profile.email,
      goals_summary: showsGoals ? profile.goals_summary : null,
    },
  };
}

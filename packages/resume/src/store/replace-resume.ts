import { inTransaction, queryRows, type Database, type Queryable } from "@app/db";
import { COLLECTIONS } from "../collections.ts";
import type { ResumeToImport } from "../read-resume-import.ts";
import type { ResumeImport } from "../schemas/resume-import.ts";
import type { WholeResume } from "../schemas/whole-resume.ts";
import { lockCollection } from "./collection-store.ts";
import { listedNewestFirst, tableOf, type CollectionTable } from "./collection-tables.ts";
import { putProfile } from "./profile-store.ts";
import { getWholeResume } from "./resume-store.ts";

const TABLES = [
  "resume.profiles",
  ...COLLECTIONS.map((collection) => tableOf(collection).table),
  "resume.json_resume_documents",
];

/**
 * Replaces the person's whole resume in one transaction, all or nothing, and
 * answers the new one. The lock order keeps it clear of deadlocks with the
 * single routes, which lock their row and then the person's version row (the
 * version trigger): first every collection's create lock, then every existing
 * row, and only then the first write. What a JSON Resume import keeps
 * (`kept`) is written with it: each entry's item beside the entry, the rest
 * of the document in its own row; an import without it leaves none.
 */
export async function replaceWholeResume(
  db: Database,
  userId: string,
  resume: ResumeImport,
  kept?: ResumeToImport["kept"],
): Promise<WholeResume> {
  return inTransaction(db, async (tx) => {
    for (const collection of COLLECTIONS) await tx.query(...lockCollection(collection, userId));
    for (const table of TABLES)
      await tx.query(`SELECT 1 FROM ${table} WHERE user_id = $1 FOR UPDATE`, userId);

    if (resume.profile) await putProfile(tx, userId, resume.profile);
    else await tx.query(`DELETE FROM resume.profiles WHERE user_id = $1`, userId);

    for (const collection of COLLECTIONS) {
      const table = tableOf(collection);
      const columns = [...Object.keys(table.columns), "json_resume"];
      const entries = resume[collection.name];
      const ids = await deleteEntriesKeepingIds(tx, table, userId, JSON.stringify(entries));
      if (entries.length === 0) continue;
      // Entries with equal dates list last-written first: written in reverse, they list in the given order.
      await tx.query(
        `INSERT INTO ${table.table} (id, user_id, ${columns.join(", ")})
         SELECT coalesce(r.id, gen_random_uuid()), $1, ${columns.map((column) => `r.${column}`).join(", ")}
           FROM json_array_elements($2::json) WITH ORDINALITY AS e(item, n),
                json_populate_record(null::${table.table}, e.item) AS r
          ORDER BY e.n ${listedNewestFirst(table) ? "DESC" : "ASC"}`,
        userId,
        JSON.stringify(
          entries.map((entry, position) => ({
            ...entry,
            id: ids[position],
            json_resume: kept ? { position, item: kept.items[collection.name][position] } : null,
          })),
        ),
      );
    }
    if (kept) {
      await tx.query(
        `INSERT INTO resume.json_resume_documents (user_id, document) VALUES ($1, $2::json)
         ON CONFLICT (user_id) DO UPDATE SET document = EXCLUDED.document`,
        userId,
        JSON.stringify(kept.document),
      );
    } else {
      await tx.query(`DELETE FROM resume.json_resume_documents WHERE user_id = $1`, userId);
    }
    return getWholeResume(tx, userId);
  });
}

/**
 * Deletes the person's entries of `table` and answers, for each entry to
 * import (`entries`, a JSON array), in order, the id of a deleted entry equal
 * to it in every field, else null: an entry that comes back unchanged (a
 * restore, an import of this resume's own export) stays the entry that
 * tailored versions list. Both sides are compared as PostgreSQL reads them
 * into the table's columns; equal entries pair off one to one.
 */
async function deleteEntriesKeepingIds(
  tx: Queryable,
  table: CollectionTable,
  userId: string,
  entries: string,
): Promise<(string | null)[]> {
  const fieldsOf = (alias: string) =>
    `jsonb_build_array(${Object.keys(table.columns)
      .map((column) => `${alias}.${column}`)
      .join(", ")})::text`;
  const rows = await queryRows<{ id: string | null; fields: string }>(
    tx,
    `WITH replaced AS (DELETE FROM ${table.table} t WHERE t.user_id = $1 RETURNING t.id::text AS id, ${fieldsOf("t")} AS fields)
     SELECT id, fields, 0 AS n FROM replaced
     UNION ALL
     SELECT NULL, ${fieldsOf("r")}, e.n FROM json_array_elements($2::json) WITH ORDINALITY AS e(item, n),
                                             json_populate_record(null::${table.table}, e.item) AS r
     ORDER BY n`,
    userId,
    entries,
  );
  const replacedIds = new Map<string, string[]>();
  for (const { id, fields } of rows)
    if (id !== null) replacedIds.set(fields, [...(replacedIds.get(fields) ?? []), id]);
  return rows.filter(({ id }) => id === null).map(({ fields }) => replacedIds.get(fields)?.shift() ?? null);
}

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
 * of the document in its own row. An import of the service's own JSON (no
 * `kept`), which cannot carry any of it, leaves what an earlier JSON Resume
 * import kept as it was: the document's row, and each item with the entry it
 * stays; a restore of a backup must not drop what the backup never held.
 */
export async function replaceWholeResume(
  db: Database,
  userId: string,
  resume: ResumeImport,
  { kept, ids }: Pick<ResumeToImport, "kept" | "ids"> = {},
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
      // A JSON Resume import (it keeps the document) matches entries as their export reads back.
      const asExported = kept !== undefined;
      const replaced = await deleteEntriesKeepingIds(
        tx,
        table,
        userId,
        JSON.stringify(entries),
        asExported,
        ids?.[collection.name] ?? [],
      );
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
            // An entry found unchanged is written as it was: its days, where the import read only their year.
            ...(replaced[position]?.unchanged ?? entry),
            id: replaced[position]?.id ?? null,
            json_resume: kept
              ? { position, item: kept.items[collection.name][position] }
              : (replaced[position]?.jsonResume ?? null),
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
    }
    return getWholeResume(tx, userId);
  });
}

/**
 * A deleted entry an imported one stays: its id, its fields as they were when
 * the import left it unchanged, and what an earlier JSON Resume import kept
 * of its item (`json_resume`), for an import that keeps nothing of its own.
 */
interface KeptEntry {
  id: string;
  unchanged?: Record<string, unknown>;
  jsonResume?: unknown;
}

/**
 * Deletes the person's entries of `table` and answers, for each entry to
 * import (`entries`, a JSON array), in order, the deleted entry it stays, else
 * null, so that tailored versions go on listing it: first the one whose id it
 * carries (`ids`, the service's own JSON: a restore of a backup edited in
 * any field; an id no other entry of the file carries, and only among the
 * person's entries of this collection, so that another person's id or an
 * unknown one is simply a new entry), then one equal to it in
 * every field (a restore, an import of this resume's own export; its fields
 * are kept as the table held them; equal ones pair off in order), then, among
 * those left, the same entry edited: one of the same identity
 * (CollectionTable.identity: a job's organization and start year, a skill's
 * name), the one it has the most fields in common with. Both sides are
 * compared as PostgreSQL reads them into the table's columns; with
 * `asExported` (a JSON Resume import), as the entry's JSON Resume export reads
 * back (matchedFields).
 */
async function deleteEntriesKeepingIds(
  tx: Queryable,
  table: CollectionTable,
  userId: string,
  entries: string,
  asExported: boolean,
  ids: readonly (string | null)[],
): Promise<(KeptEntry | null)[]> {
  const columns = Object.keys(table.columns);
  const storedOf = (alias: string) =>
    `json_build_object(${columns.map((column) => `'${column}', ${alias}.${column}`).join(", ")})::text`;
  const compared = (alias: string) =>
    `${matchedFields(table, alias, asExported)} AS matched, ${identityOf(table, alias)} AS identity`;
  const rows = await queryRows<{
    id: string | null;
    matched: string;
    identity: string;
    stored: string | null;
    json_resume: string | null;
  }>(
    tx,
    `WITH replaced AS (DELETE FROM ${table.table} t WHERE t.user_id = $1
                       RETURNING t.id::text AS id, t.seq, ${compared("t")}, ${storedOf("t")} AS stored,
                                 t.json_resume::text AS json_resume)
     SELECT id, matched, identity, stored, json_resume, 0 AS n, seq FROM replaced
     UNION ALL
     SELECT NULL, ${compared("r")}, NULL, NULL, e.n, NULL
       FROM json_array_elements($2::json) WITH ORDINALITY AS e(item, n),
            json_populate_record(null::${table.table}, e.item) AS r
     ORDER BY n, seq`,
    userId,
    entries,
  );
  const deleted = rows.filter((row) => row.id !== null);
  const imported = rows.filter((row) => row.id === null);
  const kept: (KeptEntry | null)[] = imported.map(() => null);
  const taken = new Set<number>();
  const keep = (position: number, old: number, unchanged?: Record<string, unknown>) => {
    taken.add(old);
    const { id, json_resume } = deleted[old]!;
    kept[position] = {
      id: id!,
      ...(unchanged && { unchanged }),
      ...(json_resume !== null && { jsonResume: JSON.parse(json_resume) as unknown }),
    };
  };
  // An id two entries of the file carry says neither is that entry: they pair by content, as the rest.
  const carriers = new Map<string, number>();
  for (const id of ids) if (id) carriers.set(id, (carriers.get(id) ?? 0) + 1);
  imported.forEach((_, position) => {
    const id = ids[position];
    if (!id || carriers.get(id) !== 1) return;
    const old = deleted.findIndex((row) => row.id === id);
    if (old >= 0) keep(position, old);
  });
  // Looked up by their text, not compared with each: 200 entries of 60 KB against 200 took seconds.
  const unchangedOf = indicesBy(deleted, (row) => row.matched);
  imported.forEach((entry, position) => {
    if (kept[position]) return;
    const old = unchangedOf.get(entry.matched)?.find((i) => !taken.has(i));
    if (old !== undefined) keep(position, old, JSON.parse(deleted[old]!.stored!) as Record<string, unknown>);
  });
  // Of several entries of one identity (two jobs at one organization in one year), each goes with
  // the one it has the most fields in common with: the order of the file is no guide.
  const fieldsOf = fieldNumbering();
  const sameIdentityOf = indicesBy(deleted, (row) => row.identity);
  const pairs = imported.flatMap((entry, position) =>
    kept[position]
      ? []
      : (sameIdentityOf.get(entry.identity) ?? []).flatMap((old) =>
          taken.has(old)
            ? []
            : [{ position, old, common: fieldsInCommon(fieldsOf(deleted[old]!), fieldsOf(entry)) }],
        ),
  );
  pairs.sort((a, b) => b.common - a.common || a.position - b.position || a.old - b.old);
  for (const { position, old } of pairs) if (!kept[position] && !taken.has(old)) keep(position, old);
  return kept;
}

/** The indices of `rows` by a key of each, in order. */
function indicesBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, number[]> {
  const indices = new Map<string, number[]>();
  rows.forEach((row, i) => {
    const key = keyOf(row);
    const list = indices.get(key);
    if (list) list.push(i);
    else indices.set(key, [i]);
  });
  return indices;
}

/**
 * An entry's fields (matchedFields, a JSON array) as numbers, one per distinct
 * value, read once per entry: pairs then compare numbers, not long texts.
 */
function fieldNumbering(): (row: { matched: string }) => number[] {
  const numbers = new Map<string, number>();
  const fields = new WeakMap<object, number[]>();
  return (row) => {
    let numbered = fields.get(row);
    if (!numbered) {
      numbered = (JSON.parse(row.matched) as unknown[]).map((value) => {
        const text = JSON.stringify(value);
        let number = numbers.get(text);
        if (number === undefined) numbers.set(text, (number = numbers.size));
        return number;
      });
      fields.set(row, numbered);
    }
    return numbered;
  };
}

/** How many of two entries' fields are equal. */
function fieldsInCommon(left: readonly number[], right: readonly number[]): number {
  return left.filter((number, i) => number === right[i]).length;
}

/** An entry's identity (CollectionTable.identity) as text; a date counts by its year. */
function identityOf({ columns, identity }: CollectionTable, alias: string): string {
  const parts = identity.map((column) =>
    columns[column] === "date" ? `date_part('year', ${alias}.${column})` : `${alias}.${column}`,
  );
  return `jsonb_build_array(${parts.join(", ")})::text`;
}

/**
 * An entry's fields as an import compares them, as text. `asExported`: as its
 * JSON Resume export reads back (json-resume-mapping.ts, jsonResumeValue): a
 * date of an entry read as years is that year's first day, the export giving
 * the year alone, and the `date_precision` of an entry without a date is none,
 * the export saying nothing of it. So the export of an entry read as years,
 * imported, finds that entry, whose days and precision it then keeps.
 */
function matchedFields({ columns }: CollectionTable, alias: string, asExported: boolean): string {
  const dates = Object.keys(columns).filter((column) => columns[column] === "date");
  const compared = Object.keys(columns).map((column) => {
    const value = `${alias}.${column}`;
    if (!asExported || !("date_precision" in columns)) return value;
    if (columns[column] === "date")
      return `CASE WHEN ${alias}.date_precision = 'year' THEN date_trunc('year', ${value}::timestamp)::date ELSE ${value} END`;
    if (column === "date_precision")
      return `CASE WHEN num_nonnulls(${dates.map((date) => `${alias}.${date}`).join(", ")}) > 0 THEN ${value} END`;
    return value;
  });
  return `jsonb_build_array(${compared.join(", ")})::text`;
}

import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { nextUpdatedAtOf, queryRows, type Database, type Queryable } from "@app/db";
import { DomainError } from "@app/rest/errors";
import type { VersionCheck } from "@app/rest/preconditions";
import type { Collection } from "../collections.ts";
import { LIMITS } from "../limits.ts";
import { checkedWrite, type CheckedRow } from "./checked-write.ts";
import { createOnce } from "./create-once.ts";
import { tableOf } from "./collection-tables.ts";
import { advisoryXactLock, castParameters, columnValues, entryJson, listJson } from "./sql.ts";

/** An entry of `C` as the API answers it (the JSON that entryJson builds). */
type Entry<C extends Collection> = z.output<C["output"]>;

const notFound = (collection: Collection) =>
  new DomainError(404, `no ${collection.entityType} entry with that id`);

/**
 * The entry's row, for a conditional write (checked-write.ts). Not there to
 * lock, it is the 404 when it is not there at all; else replacedWhileWaited.
 */
const checkedEntryRow = (collection: Collection, userId: string, id: string): CheckedRow => ({
  table: tableOf(collection).table,
  id,
  userId,
  what: `${collection.entityType} entry`,
  whenMissing: (tx) => getEntry(tx, collection, userId, id),
});

export async function listEntries<C extends Collection>(
  db: Database,
  collection: C,
  userId: string,
): Promise<Entry<C>[]> {
  const [row] = await queryRows<{ items: Entry<C>[] }>(db, `SELECT ${listJson(collection)} AS items`, userId);
  return row!.items;
}

export async function getEntry<C extends Collection>(
  db: Queryable,
  collection: C,
  userId: string,
  id: string,
): Promise<Entry<C>> {
  const [row] = await queryRows<{ entry: Entry<C> }>(
    db,
    `SELECT ${entryJson(collection)} AS entry FROM ${tableOf(collection).table} t WHERE t.id = $1::uuid AND t.user_id = $2`,
    id,
    userId,
  );
  if (!row) throw notFound(collection);
  return row.entry;
}

/** The statement that adds an entry with a new uuid v4 unless the collection is full (then no row). */
function insertEntry(
  collection: Collection,
  userId: string,
  fields: Record<string, unknown>,
): [string, ...unknown[]] {
  const { table, columns } = tableOf(collection);
  return [
    `INSERT INTO ${table} AS t (id, user_id, ${Object.keys(columns).join(", ")})
     SELECT $1::uuid, $2, ${castParameters(columns, 3).join(", ")}
      WHERE (SELECT count(*) FROM ${table} WHERE user_id = $2) < ${LIMITS.entriesPerCollection}
     RETURNING ${entryJson(collection)} AS entry`,
    randomUUID(),
    userId,
    ...columnValues(columns, fields),
  ];
}

/**
 * A per-user, per-collection advisory lock makes the count and the insert one
 * step, so concurrent creates cannot pass the cap. It is also the first write
 * lock of the transaction, as the resume version row needs
 * (docs/resume-api.md, "The whole resume from memory").
 */
export const lockCollection = (collection: Collection, userId: string): [string, string] =>
  advisoryXactLock(`${tableOf(collection).table}:${userId}`);

function collectionFull(collection: Collection): DomainError {
  return new DomainError(
    409,
    `at most ${LIMITS.entriesPerCollection} ${collection.name} entries; delete one first`,
  );
}

/**
 * Adds an entry with a new uuid v4; the 201st of a collection answers 409.
 * Retry-safe under an Idempotency-Key (createOnce): keys are the caller's
 * across collections.
 */
export function createEntry<C extends Collection>(
  db: Database,
  collection: C,
  userId: string,
  fields: Record<string, unknown>,
  idempotencyKey: string | null = null,
): Promise<{ made: Entry<C>; replayed: boolean }> {
  return createOnce(db, {
    userId,
    idempotencyKey,
    route: collection.name,
    what: "entry",
    request: fields,
    lock: lockCollection(collection, userId),
    make: async (tx) => {
      const [inserted] = await tx.query<{ entry: Entry<C> }>(...insertEntry(collection, userId, fields));
      if (!inserted) throw collectionFull(collection);
      return inserted.entry;
    },
  });
}

/** Rows one purge statement deletes: a backlog is cleared in statements that each end well within their timeout. */
const PURGED_PER_STATEMENT = 5_000;

/**
 * Idempotency keys older than 24 h (they are kept at least that long) and
 * request counts of windows that ended an hour ago: run by any instance soon
 * after it starts, then hourly.
 */
export async function purgeExpiredRows(db: Database): Promise<void> {
  await purgeInBatches(db, "resume.idempotency_keys", "created_at < now() - interval '24 hours'");
  await purgeInBatches(db, "resume.rate_limits", "window_start < now() - interval '1 hour'");
  await purgeInBatches(db, "resume.public_rate_limits", "window_start < now() - interval '1 hour'");
}

async function purgeInBatches(db: Database, table: string, expired: string): Promise<void> {
  for (;;) {
    const [row] = await queryRows<{ purged: number }>(
      db,
      `WITH purged AS (DELETE FROM ${table} WHERE ctid IN
         (SELECT ctid FROM ${table} WHERE ${expired} LIMIT ${PURGED_PER_STATEMENT}) RETURNING 1)
       SELECT count(*)::int AS purged FROM purged`,
    );
    if (row!.purged < PURGED_PER_STATEMENT) return;
  }
}

/**
 * Replaces every field of an entry (omitted optional fields are cleared). A
 * field with restricted moves (goal status) changes only along an allowed move,
 * checked in the same statement as the write; `check` is the request's
 * If-Match... (checkedWrite), which goes before the move's check.
 */
export async function replaceEntry<C extends Collection>(
  db: Database,
  collection: C,
  userId: string,
  id: string,
  fields: Record<string, unknown>,
  check?: VersionCheck,
): Promise<Entry<C>> {
  const { table, columns } = tableOf(collection);
  const values = columnValues(columns, fields);
  const assignments = Object.keys(columns).map((column, i) => `${column} = ${castParameters(columns, 3)[i]}`);
  const { transition } = collection;
  const movesFrom = transition ? allowedOrigins(transition.moves, String(fields[transition.column])) : [];
  const guard = transition
    ? `AND (t.${transition.column}::text = $${3 + values.length} OR t.${transition.column}::text = ANY($${4 + values.length}::text[]))`
    : "";
  for (;;) {
    const [row] = await checkedWrite(db, checkedEntryRow(collection, userId, id), check, (db) =>
      queryRows<{ entry: Entry<C> }>(
        db,
        `UPDATE ${table} AS t SET ${assignments.join(", ")}, updated_at = ${nextUpdatedAtOf("t")}
          WHERE t.id = $1::uuid AND t.user_id = $2 ${guard}
         RETURNING ${entryJson(collection)} AS entry`,
        id,
        userId,
        ...values,
        ...(transition ? [fields[transition.column], movesFrom] : []),
      ),
    );
    if (row) return row.entry;

    // 404 when it is not there at all
    const current: Record<string, unknown> = await getEntry(db, collection, userId, id);
    const from = transition && String(current[transition.column]);
    if (transition && !movesFrom.includes(from!)) {
      throw new DomainError(
        409,
        `${transition.column} cannot move from ${from} to ${String(fields[transition.column])}; allowed: ${
          transition.moves[from!]?.join(", ") || "none"
        }`,
      );
    }
    // There, and no move refused: replacedWhileWaited.
  }
}

/*
 * replacedWhileWaited: an import writes the entries it keeps (those it found
 * unchanged) as new rows with their old ids. A write that waited for the old
 * row's lock finds it gone and, reading from before the import, no new one;
 * written again, it goes over the entry as the import left it, as if it had
 * come after.
 */

/** The statuses from which a move to `to` is allowed. */
function allowedOrigins(moves: Record<string, readonly string[]>, to: string): string[] {
  return Object.entries(moves)
    .filter(([, targets]) => targets.includes(to))
    .map(([from]) => from);
}

/** Deletes an entry for good; `check` is the request's If-Match... (checkedWrite). */
export async function deleteEntry(
  db: Database,
  collection: Collection,
  userId: string,
  id: string,
  check?: VersionCheck,
): Promise<void> {
  for (;;) {
    const deleted = await checkedWrite(db, checkedEntryRow(collection, userId, id), check, (db) =>
      queryRows(
        db,
        `DELETE FROM ${tableOf(collection).table} t WHERE t.id = $1::uuid AND t.user_id = $2 RETURNING true`,
        id,
        userId,
      ),
    );
    if (deleted.length > 0) return;
    // 404 when it is not there at all; else replacedWhileWaited.
    await getEntry(db, collection, userId, id);
  }
}

import { createHash, randomUUID } from "node:crypto";
import type { z } from "zod";
import { inTransaction, nextUpdatedAtOf, queryRows, type Database, type Queryable } from "@app/db";
import { DomainError } from "@app/rest/errors";
import type { VersionCheck } from "@app/rest/preconditions";
import type { Collection } from "../collections.ts";
import { LIMITS } from "../limits.ts";
import { checkedWrite, type CheckedRow } from "./checked-write.ts";
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

/** Adds an entry with a new uuid v4; the 201st of a collection answers 409. */
export async function createEntry<C extends Collection>(
  db: Database,
  collection: C,
  userId: string,
  fields: Record<string, unknown>,
): Promise<Entry<C>> {
  const inserted = await inTransaction(db, async (tx) => {
    await tx.query(...lockCollection(collection, userId));
    return tx.query<{ entry: Entry<C> }>(...insertEntry(collection, userId, fields));
  });
  if (!inserted[0]) throw collectionFull(collection);
  return inserted[0].entry;
}

/** A key that a create with another body, or on another collection, has used. */
class KeyTakenMeanwhile extends Error {}

/**
 * createEntry under an Idempotency-Key (docs/resume-api.md, "Retry-safe creates"): the
 * first create with the key stores its answer in the same transaction as the
 * entry; a later one with the same body on the same collection gets that
 * answer again (`replayed`), one with another body or collection a 422. Creates
 * on one collection wait for each other (the advisory lock), so the second of
 * two concurrent ones sees the first's key; one on another collection waits on
 * the key's row and is refused. A refused create (409) writes no key.
 */
export async function createEntryOnce<C extends Collection>(
  db: Database,
  collection: C,
  userId: string,
  fields: Record<string, unknown>,
  idempotencyKey: string,
): Promise<{ entry: Entry<C>; replayed: boolean }> {
  const requestHash = createHash("sha256").update(JSON.stringify(fields)).digest("hex");
  type StoredKey = { collection: string; request_hash: string; entry: Entry<C> };
  const STORED_KEY = `SELECT collection, request_hash, entry FROM resume.idempotency_keys WHERE user_id = $1 AND idempotency_key = $2`;
  const replayOrRefuse = (original: StoredKey) => {
    if (original.collection !== collection.name || original.request_hash !== requestHash) {
      throw new DomainError(
        422,
        original.collection === collection.name
          ? "this Idempotency-Key was used with another body; send a new key for a new entry"
          : `this Idempotency-Key was used on /me/${original.collection}; send a new key for a new entry`,
        { error: "IDEMPOTENCY_KEY_REUSED" },
      );
    }
    return { entry: original.entry, replayed: true };
  };

  try {
    return await inTransaction(db, async (tx) => {
      await tx.query(...lockCollection(collection, userId));
      const [original] = await tx.query<StoredKey>(STORED_KEY, userId, idempotencyKey);
      if (original) return replayOrRefuse(original);
      const [inserted] = await tx.query<{ entry: Entry<C> }>(...insertEntry(collection, userId, fields));
      if (!inserted) throw collectionFull(collection);
      const [claimed] = await tx.query<{ claimed: boolean }>(
        `INSERT INTO resume.idempotency_keys (user_id, idempotency_key, collection, request_hash, entry)
         VALUES ($1, $2, $3, $4, $5::jsonb) ON CONFLICT DO NOTHING RETURNING true AS claimed`,
        userId,
        idempotencyKey,
        collection.name,
        requestHash,
        JSON.stringify(inserted.entry),
      );
      if (!claimed) throw new KeyTakenMeanwhile();
      return { entry: inserted.entry, replayed: false };
    });
  } catch (error) {
    if (!(error instanceof KeyTakenMeanwhile)) throw error;
    // Rolled back: nothing of this create was written. The key's first use decides.
    const [original] = await queryRows<StoredKey>(db, STORED_KEY, userId, idempotencyKey);
    return replayOrRefuse(original!);
  }
}

/**
 * Idempotency keys older than 24 h (they are kept at least that long) and
 * request counts of windows that ended an hour ago: run hourly by any instance.
 */
export async function purgeExpiredRows(db: Database): Promise<void> {
  await queryRows(db, `DELETE FROM resume.idempotency_keys WHERE created_at < now() - interval '24 hours'`);
  await queryRows(db, `DELETE FROM resume.rate_limits WHERE window_start < now() - interval '1 hour'`);
  await queryRows(db, `DELETE FROM resume.public_rate_limits WHERE window_start < now() - interval '1 hour'`);
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

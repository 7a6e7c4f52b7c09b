import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { Database } from "@app/db";
import type { Collection } from "../collections.ts";
import { LIMITS } from "../limits.ts";
import { tableOf } from "./collection-tables.ts";
import { castParameters, columnValues, entryJson, listJson } from "./sql.ts";

/** An entry of `C` as the API answers it (the JSON that entryJson builds). */
type Entry<C extends Collection> = z.output<C["output"]>;

const notFound = (collection: Collection) =>
  new TRPCError({ code: "NOT_FOUND", message: `no ${collection.entityType} entry with that id` });

export async function listEntries<C extends Collection>(
  db: Database,
  collection: C,
  userId: string,
): Promise<Entry<C>[]> {
  const [row] = await db.$queryRawUnsafe<{ items: Entry<C>[] }[]>(
    `SELECT ${listJson(collection)} AS items`,
    userId,
  );
  return row!.items;
}

export async function getEntry<C extends Collection>(
  db: Database,
  collection: C,
  userId: string,
  id: string,
): Promise<Entry<C>> {
  const [row] = await db.$queryRawUnsafe<{ entry: Entry<C> }[]>(
    `SELECT ${entryJson(collection)} AS entry FROM ${tableOf(collection).table} t WHERE t.id = $1::uuid AND t.user_id = $2`,
    id,
    userId,
  );
  if (!row) throw notFound(collection);
  return row.entry;
}

/**
 * Adds an entry with a new uuid v4. A per-user, per-collection advisory lock
 * makes the count and the insert one step, so concurrent creates cannot pass
 * the cap; the 201st answers 409.
 */
export async function createEntry<C extends Collection>(
  db: Database,
  collection: C,
  userId: string,
  fields: Record<string, unknown>,
): Promise<Entry<C>> {
  const { table, columns } = tableOf(collection);
  const [, inserted] = await db.$transaction([
    db.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))::text`, `${table}:${userId}`),
    db.$queryRawUnsafe<{ entry: Entry<C> }[]>(
      `INSERT INTO ${table} AS t (id, user_id, ${Object.keys(columns).join(", ")})
       SELECT $1::uuid, $2, ${castParameters(columns, 3).join(", ")}
        WHERE (SELECT count(*) FROM ${table} WHERE user_id = $2) < ${LIMITS.entriesPerCollection}
       RETURNING ${entryJson(collection)} AS entry`,
      randomUUID(),
      userId,
      ...columnValues(columns, fields),
    ),
  ]);
  const row = inserted[0];
  if (!row) {
    throw new TRPCError({
      code: "CONFLICT",
      message: `at most ${LIMITS.entriesPerCollection} ${collection.name} entries; delete one first`,
    });
  }
  return row.entry;
}

/**
 * Replaces every field of an entry (omitted optional fields are cleared). A
 * field with restricted moves (goal status) changes only along an allowed move,
 * checked in the same statement as the write.
 */
export async function replaceEntry<C extends Collection>(
  db: Database,
  collection: C,
  userId: string,
  id: string,
  fields: Record<string, unknown>,
): Promise<Entry<C>> {
  const { table, columns } = tableOf(collection);
  const values = columnValues(columns, fields);
  const assignments = Object.keys(columns).map((column, i) => `${column} = ${castParameters(columns, 3)[i]}`);
  const { transition } = collection;
  const movesFrom = transition ? allowedOrigins(transition.moves, String(fields[transition.column])) : [];
  const guard = transition
    ? `AND (t.${transition.column}::text = $${3 + values.length} OR t.${transition.column}::text = ANY($${4 + values.length}::text[]))`
    : "";
  const [row] = await db.$queryRawUnsafe<{ entry: Entry<C> }[]>(
    `UPDATE ${table} AS t SET ${assignments.join(", ")}, updated_at = now()
      WHERE t.id = $1::uuid AND t.user_id = $2 ${guard}
     RETURNING ${entryJson(collection)} AS entry`,
    id,
    userId,
    ...values,
    ...(transition ? [fields[transition.column], movesFrom] : []),
  );
  if (row) return row.entry;

  // 404 when it is not there at all
  const current: Record<string, unknown> = await getEntry(db, collection, userId, id);
  const from = String(current[transition!.column]);
  throw new TRPCError({
    code: "CONFLICT",
    message: `${transition!.column} cannot move from ${from} to ${String(fields[transition!.column])}; allowed: ${
      transition!.moves[from]?.join(", ") || "none"
    }`,
  });
}

/** The statuses from which a move to `to` is allowed. */
function allowedOrigins(moves: Record<string, readonly string[]>, to: string): string[] {
  return Object.entries(moves)
    .filter(([, targets]) => targets.includes(to))
    .map(([from]) => from);
}

export async function deleteEntry(
  db: Database,
  collection: Collection,
  userId: string,
  id: string,
): Promise<void> {
  const deleted = await db.$executeRawUnsafe(
    `DELETE FROM ${tableOf(collection).table} t WHERE t.id = $1::uuid AND t.user_id = $2`,
    id,
    userId,
  );
  if (deleted === 0) throw notFound(collection);
}

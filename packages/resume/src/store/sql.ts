import { isoTimestampSql } from "@app/db";
import type { Collection } from "../collections.ts";
import { tableOf } from "./collection-tables.ts";

/** The statement that holds the transaction-scoped advisory lock named `key` (its arguments, for a transaction's `tx.query`). */
export const advisoryXactLock = (key: string): [string, string] => [
  `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))::text`,
  key,
];

/**
 * The JSON of one row of alias `t` exactly as the API returns it. Lists, single
 * entries and the whole resume all use this one expression, so they agree.
 */
export function entryJson(collection: Collection): string {
  const fields = Object.keys(tableOf(collection).columns).map((column) => `'${column}', t.${column}`);
  return `json_build_object(
    'id', t.id,
    'entity_type', '${collection.entityType}',
    'pk', 'USER#' || t.user_id,
    'sk', '${collection.entityType.toUpperCase()}#' || t.id,
    ${fields.join(", ")},
    'created_at', ${isoTimestampSql("t.created_at")},
    'updated_at', ${isoTimestampSql("t.updated_at")})`;
}

/** A row's version (alias `t`) as the API gives it: its updated_at, as in its JSON. */
export const VERSION_SQL = isoTimestampSql("t.updated_at");

export const PROFILE_COLUMNS = {
  name: "text",
  headline: "text",
  summary: "text",
  location: "text",
  city: "text",
  region: "text",
  postal_code: "text",
  country_code: "text",
  email: "text",
  phone: "text",
  links: "json",
  goals_summary: "text",
  language: "text",
} as const;

export function profileJson(): string {
  const fields = Object.keys(PROFILE_COLUMNS).map((column) => `'${column}', t.${column}`);
  return `json_build_object(
    'entity_type', 'profile',
    'pk', 'USER#' || t.user_id,
    'sk', 'PROFILE',
    ${fields.join(", ")},
    'created_at', ${isoTimestampSql("t.created_at")},
    'updated_at', ${isoTimestampSql("t.updated_at")})`;
}

/** A JSON array of the user's (`$1`) entries in the collection's order; `andWhere` narrows them (alias `t`). */
export function listJson(collection: Collection, andWhere = "true"): string {
  const { table, orderBy } = tableOf(collection);
  return `(SELECT coalesce(json_agg(${entryJson(collection)} ORDER BY ${orderBy}), '[]'::json)
    FROM ${table} t WHERE t.user_id = $1 AND ${andWhere})`;
}

/** `$first::type, $next::type, ...` for the collection's columns. */
export function castParameters(columns: Record<string, string>, first: number): string[] {
  return Object.values(columns).map((type, i) => `$${first + i}::${type}`);
}

/** The row values of validated fields, in column order. */
export function columnValues(columns: Record<string, string>, fields: Record<string, unknown>): unknown[] {
  return Object.entries(columns).map(([column, type]) => {
    const value = fields[column];
    return type === "json" ? JSON.stringify(value) : (value ?? null);
  });
}

import { createHash } from "node:crypto";

/**
 * sha256 of a request, to tell a replay from a reused idempotency key. The
 * caller writes the request as it means, in a fixed shape: its fields in a
 * fixed order (a JSON object has none, so a retry may send them in another),
 * ids as stored (lower case), metadata's keys sorted (inKeyOrder), and an
 * omitted field as what it always stands for (metadata `{}`, description
 * null). A field whose default changes (an omitted date is today) stays
 * omitted.
 */
export function requestHash(request: unknown): string {
  return createHash("sha256").update(JSON.stringify(request)).digest("hex");
}

/** `record` with its keys in code-point order. */
export function inKeyOrder<T>(record: Record<string, T>): Record<string, T> {
  const keys = Object.keys(record);
  if (keys.length < 2) return record;
  return Object.fromEntries(keys.sort().map((key) => [key, record[key]!]));
}

/**
 * Metadata with its keys in the order PostgreSQL's jsonb keeps them (shorter
 * keys first, then byte order; keys are ASCII), so that a new post's answer,
 * built from the request, has the bytes of its replay, read from the column.
 */
export function inJsonbKeyOrder(metadata: Record<string, string>): Record<string, string> {
  const keys = Object.keys(metadata).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, metadata[key]!]));
}

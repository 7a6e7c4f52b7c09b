/**
 * Metadata with its keys in the order PostgreSQL's jsonb keeps them (shorter
 * keys first, then byte order; keys are ASCII), so that a new post's answer,
 * built from the request, has the bytes of its replay, read from the column.
 * Keys that are whole numbers ("10") still come first, in numeric order: a
 * JavaScript object keeps them so, the replay's parsed copy too.
 */
export function inJsonbKeyOrder(metadata: Record<string, string>): Record<string, string> {
  const keys = Object.keys(metadata).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, metadata[key]!]));
}

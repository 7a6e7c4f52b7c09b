/** SQL for a timestamptz column as ISO 8601 UTC with milliseconds, whatever the session's TimeZone. */
export const isoTimestampSql = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * What a write sets the `updated_at` of its row (alias `alias`) to: the time
 * of the write (not its transaction's start, which may be long before, when
 * it waited for the row), and at least 1 ms past the last write's, so that no
 * two versions of a row share one (a version is what If-Match compares;
 * @app/rest/preconditions).
 */
export const nextUpdatedAtOf = (alias: string) =>
  `greatest(clock_timestamp(), ${alias}.updated_at + interval '1 millisecond')`;

/** SQL for a timestamptz column as ISO 8601 UTC with milliseconds, whatever the session's TimeZone. */
export const isoTimestampSql = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

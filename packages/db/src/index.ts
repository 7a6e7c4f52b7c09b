export { batchCalls, batchCallsPerClient, type BatchCallsOptions } from "./batch-calls.ts";
export {
  databaseErrorCode,
  isConstraintViolation,
  databaseErrorClass,
  isDatabaseUnavailable,
  isRefusedValue,
  mayBeOneWritersFailure,
  withTimeout,
} from "./database-errors.ts";
export {
  createDatabase,
  inTransaction,
  isDatabase,
  isDatabaseReachable,
  pipelinedQueries,
  PLAN_EACH_CALL,
  poolStatsOf,
  queryRows,
  statementName,
  type Database,
  type DatabaseOptions,
  type PoolTransaction,
  type Queryable,
} from "./client.ts";
export { databaseOptionsOf, databaseSettings } from "./database-settings.ts";
export type { PipelinedConnection } from "./pipelined-connection.ts";
export { migrateDatabase, readMigrations, type Migration } from "./migrate.ts";
export { findRepoRoot, migrationsDirectory } from "./paths.ts";
export { isoTimestampSql, nextUpdatedAtOf } from "./sql.ts";
export { createNotifier, listenForNotifications } from "./notifications.ts";

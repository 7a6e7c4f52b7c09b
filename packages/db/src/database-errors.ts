/** Error codes meaning "the database did not answer", from node-postgres, Node and Postgres. */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000",
  "08001",
  "08003",
  "08006",
]);

const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Can't reach database|DatabaseNotReachable|server closed the connection/i;

/**
 * True when `error` (or anything in its cause chain) says the database could
 * not be reached, as opposed to a query that failed on its merits.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth += 1) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown };
    if (typeof candidate.code === "string" && UNAVAILABLE_CODES.has(candidate.code)) return true;
    if (candidate.kind === "DatabaseNotReachable" || candidate.kind === "ConnectionClosed") return true;
    if (typeof candidate.message === "string" && UNAVAILABLE_MESSAGES.test(candidate.message)) return true;
    current = candidate.cause;
  }
  return false;
}

/**
 * The PostgreSQL SQLSTATE of a failed query (`23502`, `23514`, ...), wherever
 * Prisma's driver adapter put it in the error, or undefined.
 */
export function databaseErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 8; depth += 1) {
    const candidate = current as {
      originalCode?: unknown;
      meta?: { driverAdapterError?: { cause?: unknown } };
      cause?: unknown;
    };
    if (typeof candidate.originalCode === "string") return candidate.originalCode;
    current = candidate.meta?.driverAdapterError?.cause ?? candidate.cause;
  }
  return undefined;
}

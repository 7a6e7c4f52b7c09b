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

/** Prisma's codes for the same: can't reach, timed out, connection closed, too many connections. */
const PRISMA_UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2037"]);

/** A statement that did not answer in time (see `withTimeout`): the database counts as unavailable. */
class DatabaseTimeoutError extends Error {}

/**
 * True when `error` (or anything in its cause chain, or the driver error
 * Prisma keeps in `meta.driverAdapterError`) says the database could not be
 * reached or did not answer, as opposed to a query that failed on its merits.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const candidate of errorChain(error)) {
    if (candidate instanceof DatabaseTimeoutError) return true;
    for (const code of [candidate.code, candidate.originalCode]) {
      if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || PRISMA_UNAVAILABLE_CODES.has(code)))
        return true;
    }
    if (candidate.kind === "DatabaseNotReachable" || candidate.kind === "ConnectionClosed") return true;
    if (typeof candidate.message === "string" && UNAVAILABLE_MESSAGES.test(candidate.message)) return true;
  }
  return false;
}

/** `promise`, or a DatabaseTimeoutError after `ms` (the statement itself is not cancelled). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DatabaseTimeoutError(`the database did not answer within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The PostgreSQL SQLSTATE of a failed query (`23502`, `23514`, ...), wherever
 * Prisma's driver adapter put it in the error, or undefined.
 */
export function databaseErrorCode(error: unknown): string | undefined {
  for (const candidate of errorChain(error)) {
    if (typeof candidate.originalCode === "string") return candidate.originalCode;
  }
  return undefined;
}

/** True when `error` says the database refused a write for breaking the named constraint. */
export function isConstraintViolation(error: unknown, constraint: string): boolean {
  for (const candidate of errorChain(error)) {
    const text = `${String(candidate.message ?? "")} ${String(candidate.originalMessage ?? "")} ${String(candidate.constraint ?? "")}`;
    if (text.includes(constraint)) return true;
  }
  return false;
}

interface ErrorLink {
  code?: unknown;
  originalCode?: unknown;
  message?: unknown;
  originalMessage?: unknown;
  constraint?: unknown;
  kind?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/** An error and what it wraps: Prisma's driver-adapter error first, else its `cause` (eight deep at most). */
function* errorChain(error: unknown): Generator<ErrorLink> {
  for (let current = error, depth = 0; current && depth < 8; depth += 1) {
    const link = current as ErrorLink;
    yield link;
    current = link.meta?.driverAdapterError ?? link.cause;
  }
}

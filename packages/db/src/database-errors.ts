/**
 * SQLSTATEs that say the database cannot serve the request now, though it may
 * shortly: a connection exception (08), the server shutting down, crashed,
 * starting or its database gone (57P0x), out of connections, memory or disk
 * (53), a statement or lock or idle transaction that ran past its timeout
 * (57014, 55P03, 25P03), or a conflict with a concurrent transaction that a
 * retry resolves (40001, 40P01).
 */
const UNAVAILABLE_SQLSTATE = /^(08|57P|53)|^(57014|55P03|25P03|40001|40P01)$/;

/** Node's socket errors of a server that cannot be reached. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * Prisma's codes for the same: can't reach, timed out, connection closed, no
 * free connection in time, transaction not started or expired in time, write
 * conflict or deadlock, too many connections.
 */
const PRISMA_UNAVAILABLE_CODES = new Set([
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  "P2028",
  "P2034",
  "P2037",
]);

/** The kinds Prisma's pg adapter gives the same failures. */
const ADAPTER_UNAVAILABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TransactionWriteConflict",
]);

/** node-postgres's own messages (no code) for a connection that failed, hung or was closed. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|is not queryable|Cannot use a pool after calling end|Can't reach database|server closed the connection/i;

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
      if (typeof code !== "string") continue;
      if (
        UNAVAILABLE_SQLSTATE.test(code) ||
        UNAVAILABLE_SOCKET_CODES.has(code) ||
        PRISMA_UNAVAILABLE_CODES.has(code)
      )
        return true;
    }
    if (typeof candidate.kind === "string" && ADAPTER_UNAVAILABLE_KINDS.has(candidate.kind)) return true;
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

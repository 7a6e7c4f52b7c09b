/** Why the database cannot serve a request now, though it may shortly (a 503, never a 500). */
export type Unavailability =
  /** Refused, reset, closed, unreachable: a connection exception (08). */
  | "connection"
  /** A connect, pool wait, statement (57014), lock (55P03) or idle-transaction (25P03) timeout. */
  | "timeout"
  /** Out of connections, memory or disk (53). */
  | "resources"
  /** The server shutting down, crashed, starting, or its database gone (57P0x). */
  | "shutdown"
  /** A serialization failure or deadlock with a concurrent transaction, which a retry resolves (40001, 40P01). */
  | "conflict";

const BY_SQLSTATE: [RegExp, Unavailability][] = [
  [/^08/, "connection"],
  [/^(57014|55P03|25P03)$/, "timeout"],
  [/^53/, "resources"],
  [/^57P/, "shutdown"],
  [/^(40001|40P01)$/, "conflict"],
];

/** Node's socket errors, and Prisma's codes and its pg adapter's kinds for the same failures. */
const BY_CODE: Record<string, Unavailability> = {
  ECONNREFUSED: "connection",
  // A Unix-domain socket's file is gone while its server is down.
  ENOENT: "connection",
  ECONNRESET: "connection",
  EPIPE: "connection",
  EHOSTUNREACH: "connection",
  ENETUNREACH: "connection",
  ENOTFOUND: "connection",
  EAI_AGAIN: "connection",
  ETIMEDOUT: "timeout",
  P1001: "connection", // can't reach the server
  P1002: "timeout", // the server did not answer in time
  P1008: "timeout", // operations timed out
  P1017: "connection", // the server closed the connection
  P2024: "timeout", // no free connection in time
  P2028: "timeout", // a transaction not started, or expired, in time
  P2034: "conflict", // write conflict or deadlock
  P2037: "resources", // too many connections
  DatabaseNotReachable: "connection",
  ConnectionClosed: "connection",
  SocketTimeout: "timeout",
  TooManyConnections: "resources",
  TransactionWriteConflict: "conflict",
};

/** node-postgres's own messages (no code) for a connection that failed, hung or was closed. */
const BY_MESSAGE: [RegExp, Unavailability][] = [
  [
    /connection timeout|timeout exceeded when trying to connect|timeout expired|Query read timeout/i,
    "timeout",
  ],
  [
    /Connection terminated|is not queryable|Cannot use a pool after calling end|Can't reach database|server closed the connection/i,
    "connection",
  ],
];

/** A statement that did not answer in time (see `withTimeout`): the database counts as unavailable. */
class DatabaseTimeoutError extends Error {}

/**
 * A statement sent without Prisma (queryRows) failed: node-postgres's error
 * is its `cause`, and its SQLSTATE is `originalCode`, where Prisma's adapter
 * puts it.
 */
export class DatabaseQueryError extends Error {
  override name = "DatabaseQueryError";
  readonly originalCode: string | undefined;
  readonly constraint: string | undefined;

  constructor(cause: unknown) {
    super((cause as Error | undefined)?.message ?? String(cause), { cause });
    const { code, constraint } = (cause ?? {}) as { code?: unknown; constraint?: unknown };
    this.originalCode = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
    this.constraint = typeof constraint === "string" ? constraint : undefined;
  }
}

/**
 * What `error` says of the database: null when it did not come from a query
 * at all (a query error passed through Prisma, which marks it with its
 * `clientVersion`, or is a DatabaseQueryError or a `withTimeout`), "other"
 * for a query that failed on its merits, else why the database could not
 * serve it now. Node's socket codes count only under a query: a client that
 * drops its own connection is no database outage.
 */
export function databaseErrorClass(error: unknown): Unavailability | "other" | null {
  const links = [...errorChain(error)];
  if (links.some((link) => link instanceof DatabaseTimeoutError)) return "timeout";
  const fromQuery = (link: ErrorLink) =>
    typeof link.clientVersion === "string" || link instanceof DatabaseQueryError;
  if (!links.some(fromQuery)) return null;
  for (const link of links) {
    for (const code of [link.code, link.originalCode, link.kind]) {
      if (typeof code !== "string") continue;
      const known = BY_CODE[code] ?? BY_SQLSTATE.find(([pattern]) => pattern.test(code))?.[1];
      if (known) return known;
    }
    if (typeof link.message === "string") {
      const known = BY_MESSAGE.find(([pattern]) => pattern.test(link.message as string))?.[1];
      if (known) return known;
    }
  }
  return "other";
}

/** True when the database could not serve the request now (a 503, not a 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const errorClass = databaseErrorClass(error);
  return errorClass !== null && errorClass !== "other";
}

/**
 * `promise`, or a DatabaseTimeoutError after `ms` (the statement itself is
 * not cancelled: `onTimeout` may see to it).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new DatabaseTimeoutError(`the database did not answer within ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The PostgreSQL SQLSTATE of a failed query (`23502`, `23514`, ...), wherever
 * Prisma's driver adapter (or DatabaseQueryError) put it in the error, or undefined.
 */
export function databaseErrorCode(error: unknown): string | undefined {
  for (const candidate of errorChain(error)) {
    if (typeof candidate.originalCode === "string") return candidate.originalCode;
  }
  return undefined;
}

/**
 * True when the database refused a value the statement carried (SQLSTATE
 * class 22, data exception: text with a NUL, say; or 23, a constraint): in a
 * statement that serves several callers, that may be one caller's fault alone.
 */
export function isRefusedValue(error: unknown): boolean {
  return /^2[23]/.test(databaseErrorCode(error) ?? "");
}

/**
 * True when a statement that writes for several callers may have failed for
 * one of them rather than for all: a refused value (isRefusedValue), a
 * serialization failure or a deadlock (40001, 40P01). Its writes are then
 * tried apart, so that one caller's failure stays its own.
 */
export function mayBeOneWritersFailure(error: unknown): boolean {
  return isRefusedValue(error) || /^(40001|40P01)$/.test(databaseErrorCode(error) ?? "");
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
  clientVersion?: unknown;
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

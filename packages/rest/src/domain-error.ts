/**
 * What domain and store code throws when a request cannot be served as
 * asked. It knows no transport: the REST edge and the tRPC transport turn it
 * into an answer through one map (api-error.ts). Imports nothing, so any
 * layer may throw it (`@app/rest/errors`).
 */

/** The statuses domain code may answer with. */
export type DomainStatus = 400 | 401 | 403 | 404 | 409 | 412 | 422 | 429 | 503;

const ERROR_NAME_BY_STATUS: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  408: "REQUEST_TIMEOUT",
  409: "CONFLICT",
  412: "PRECONDITION_FAILED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  417: "EXPECTATION_FAILED",
  421: "MISDIRECTED_REQUEST",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  431: "REQUEST_HEADER_FIELDS_TOO_LARGE",
  500: "INTERNAL_SERVER_ERROR",
  503: "SERVICE_UNAVAILABLE",
};

/** The body's `error` for a status, when nothing more particular is said. */
export function errorNameForStatus(status: number): string {
  return ERROR_NAME_BY_STATUS[status] ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST");
}

export interface DomainErrorOptions {
  /** The body's `error`, when more particular than its status's name (`UNBALANCED_TRANSACTION`). */
  error?: string;
  /** More members of the error body (a rejected batch's `results`, a validation's `issues`). */
  details?: Record<string, unknown>;
  /** Headers the answer carries (`Retry-After`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class DomainError extends Error {
  override name = "DomainError";
  readonly errorName: string;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: DomainStatus,
    message: string,
    { error, details = {}, headers = {}, cause }: DomainErrorOptions = {},
  ) {
    super(message, { cause });
    this.errorName = error ?? errorNameForStatus(status);
    this.details = details;
    this.headers = headers;
  }
}

const DATABASE_UNAVAILABLE = "the database is unavailable; try again shortly";

/** How long a client is asked to wait before it retries a 503. */
const RETRY_UNAVAILABLE_AFTER_SECONDS = "2";

/** One thing wrong with a request, where it is. */
export interface ApiIssue {
  /** Dotted path of the offending field (`entries.1.amount`); empty for the body itself. */
  path: string;
  message: string;
}

/** The message of a validation failure: each issue with its path. */
export function invalidRequestMessage(issues: ApiIssue[]): string {
  return `invalid request: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`;
}

/** A 400 naming each issue, the body a failed validation answers (store code throws it too). */
export function invalidRequestError(issues: ApiIssue[]): DomainError {
  return new DomainError(400, invalidRequestMessage(issues), { details: { issues } });
}

/** The one 503 of both services: the database cannot serve the request now; retry shortly. */
export function serviceUnavailable(message = DATABASE_UNAVAILABLE, cause?: unknown): DomainError {
  return new DomainError(503, message, {
    headers: { "retry-after": RETRY_UNAVAILABLE_AFTER_SECONDS },
    cause,
  });
}

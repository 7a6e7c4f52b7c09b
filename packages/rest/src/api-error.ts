import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError, type z } from "zod";

/** The error body of every REST route of both services (see README, "Errors"). */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  issues?: ApiIssue[];
}

export interface ApiIssue {
  /** Dotted path of the offending field (`entries.1.amount`); empty for the body itself. */
  path: string;
  message: string;
}

const ERROR_NAME_BY_STATUS: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_SERVER_ERROR",
  503: "SERVICE_UNAVAILABLE",
};

function errorNameForStatus(status: number): string {
  return ERROR_NAME_BY_STATUS[status] ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST");
}

export function apiErrorBody(statusCode: number, message: string, issues?: ApiIssue[]): ApiErrorBody {
  return { statusCode, error: errorNameForStatus(statusCode), message, ...(issues ? { issues } : {}) };
}

interface RawIssue {
  code?: string;
  path?: PropertyKey[];
  message: string;
  keys?: string[];
}

/**
 * The issues that say something: zod also runs a list's length checks on a
 * value that is not a list at all (a string has a length), so `"abc"` sent for
 * a list would read "expected array" and then "must have at most 50 items".
 * Only the type error stays where a value has the wrong type.
 */
function withoutIssuesBesideTypeErrors<T extends { code?: string; path?: readonly PropertyKey[] }>(
  issues: readonly T[],
): T[] {
  const key = (issue: T) => JSON.stringify((issue.path ?? []).map(String));
  const mistyped = new Set(issues.filter((issue) => issue.code === "invalid_type").map(key));
  return issues.filter((issue) => issue.code === "invalid_type" || !mistyped.has(key(issue)));
}

/** Where an issue is, and what it says, as the API shows it. */
export type DescribeIssue = (path: PropertyKey[], message: string, code?: string) => ApiIssue;

/** The body's own field names, dotted: `entries.1.amount`. */
const dottedPath: DescribeIssue = (path, message) => ({ path: path.map(String).join("."), message });

/**
 * A validation failure's issues as the API shows them; an unknown key becomes
 * one issue at that key. `describe` names the place (an import names it in its
 * document's vocabulary).
 */
export function apiIssuesOf(
  error: { issues: readonly z.core.$ZodIssue[] },
  describe: DescribeIssue = dottedPath,
): ApiIssue[] {
  return withoutIssuesBesideTypeErrors(error.issues as readonly RawIssue[]).flatMap((issue) => {
    const path = issue.path ?? [];
    if (issue.code === "unrecognized_keys" && issue.keys) {
      return issue.keys.map((key) => describe([...path, key], "unknown field", issue.code));
    }
    return [describe(path, issue.message, issue.code)];
  });
}

/**
 * An error the domain raises with an `error` code of its own (`UNBALANCED_TRANSACTION`),
 * which replaces the generic name of its status in the body.
 */
export class DomainError extends TRPCError {
  constructor(
    code: TRPC_ERROR_CODE_KEY,
    readonly errorName: string,
    message: string,
    /** More members of the error body (a rejected batch's `results`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super({ code, message });
  }
}

/** The message of a validation failure: each issue with its path. */
export function invalidRequestMessage(issues: ApiIssue[]): string {
  return `invalid request: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`;
}

/** Errors that are safe to show as they are; anything else reads "internal error". */
function isExpected(error: TRPCError): boolean {
  return error.code !== "INTERNAL_SERVER_ERROR";
}

interface DefaultErrorShape {
  message: string;
  code: number;
  data: { code: TRPC_ERROR_CODE_KEY; httpStatus: number };
}

/**
 * The `errorFormatter` of both services' tRPC instances. `data` carries the API
 * error body, the same over tRPC as over REST (where the REST handler sends
 * exactly it); never a stack trace or an internal message.
 */
export function formatTrpcError({ error, shape }: { error: TRPCError; shape: DefaultErrorShape }) {
  const statusCode = shape.data.httpStatus;
  const issues = error.cause instanceof ZodError ? apiIssuesOf(error.cause) : undefined;
  const message = issues
    ? invalidRequestMessage(issues)
    : error.code === "PARSE_ERROR"
      ? "the body is not valid JSON"
      : isExpected(error)
        ? error.message
        : "internal error";
  const body: ApiErrorBody = {
    ...apiErrorBody(statusCode, message, issues),
    ...(error instanceof DomainError ? { error: error.errorName, ...error.details } : {}),
  };
  return {
    message: body.message,
    code: shape.code,
    data: { code: shape.data.code, httpStatus: statusCode, body },
  };
}

export const DATABASE_UNAVAILABLE = "the database is unavailable; try again shortly";

/**
 * A procedure's result, unless it failed because the database did not answer:
 * then a 503, so that clients know to retry rather than read a 500.
 */
export function databaseOutageAs503<R extends { ok: boolean }>(
  result: R,
  isUnavailable: (cause: unknown) => boolean,
): R {
  const cause = (result as { error?: { cause?: unknown } }).error?.cause;
  if (!result.ok && isUnavailable(cause)) {
    throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: DATABASE_UNAVAILABLE, cause });
  }
  return result;
}

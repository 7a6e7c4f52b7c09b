import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError, type z } from "zod";
import {
  DomainError,
  errorNameForStatus,
  invalidRequestMessage,
  serviceUnavailable,
  type ApiIssue,
  type DomainStatus,
} from "./domain-error.ts";

export { invalidRequestError, invalidRequestMessage, type ApiIssue } from "./domain-error.ts";

/** The error body of every REST route of both services (docs/resume-api.md, "Errors"). */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  issues?: ApiIssue[];
}

export function apiErrorBody(statusCode: number, message: string, issues?: ApiIssue[]): ApiErrorBody {
  return { statusCode, error: errorNameForStatus(statusCode), message, ...(issues ? { issues } : {}) };
}

interface RawIssue {
  code?: string;
  path?: PropertyKey[];
  message: string;
  keys?: string[];
  /** A union's: each branch's issues, their paths below the union's. */
  errors?: RawIssue[][];
  /** A record key's (`invalid_key`): why its key schema refused it. */
  issues?: RawIssue[];
}

/**
 * A union's failure as the issues of the one branch whose kind of value was
 * sent (a list sent for `"all"` or a list of ids: the list's own issues, at
 * their items), rather than zod's bare "Invalid input"; kept as it is when no
 * branch, or several, took that kind of value.
 */
function withUnionsExplained(issues: readonly RawIssue[]): RawIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== "invalid_union" || !issue.errors) return [issue];
    const wrongKind = (i: RawIssue) =>
      (i.path ?? []).length === 0 && (i.code === "invalid_type" || i.code === "invalid_value");
    const taken = issue.errors.filter((branch) => branch.length > 0 && !branch.some(wrongKind));
    if (taken.length !== 1) return [issue];
    const under = taken[0]!.map((i) => ({ ...i, path: [...(issue.path ?? []), ...(i.path ?? [])] }));
    return withUnionsExplained(under);
  });
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
  input?: unknown,
): ApiIssue[] {
  const issues = withUnionsExplained(error.issues as readonly RawIssue[]);
  return withoutIssuesBesideTypeErrors(issues).flatMap((issue) => {
    const path = issue.path ?? [];
    if (issue.code === "unrecognized_keys" && issue.keys) {
      return issue.keys.map((key) => describe([...path, key], "unknown field", issue.code));
    }
    // zod says only "Invalid key in record"; its key schema says why ("at most 50 characters").
    if (issue.code === "invalid_key" && issue.issues?.length) {
      return [describe(path, issue.issues.map((inner) => inner.message).join("; "), issue.code)];
    }
    // A field left out: zod's words are about types ("expected string, received undefined"), or the
    // schema's own are about a value ("must be a uuid").
    if (issue.code === "invalid_type" && input !== undefined && isLeftOut(input, path)) {
      return [describe(path, "is required", issue.code)];
    }
    return [describe(path, issue.message, issue.code)];
  });
}

/** Whether `input` has no member at `path`, in an object that is there. */
function isLeftOut(input: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  let parent: unknown = input;
  for (const key of path.slice(0, -1)) {
    if (typeof parent !== "object" || parent === null) return false;
    parent = (parent as Record<PropertyKey, unknown>)[key];
  }
  return (
    typeof parent === "object" &&
    parent !== null &&
    !Array.isArray(parent) &&
    (parent as Record<PropertyKey, unknown>)[path.at(-1)!] === undefined
  );
}

/** What an error answers: its status, the error body and the headers it carries. */
export interface ApiError {
  status: number;
  body: ApiErrorBody;
  headers: Record<string, string>;
}

/**
 * The one map from what went wrong to what the client reads, for both
 * services and both transports: a DomainError (thrown, or the cause tRPC
 * wrapped it in) says its own status, body and headers; a failed input
 * validation is a 400 listing its issues (with the `input` validated, a field
 * it left out "is required"); tRPC's own errors keep their status and message;
 * anything else is a 500 that says no more than "internal error".
 */
export function apiErrorOf(error: unknown, input?: unknown): ApiError {
  const domain = error instanceof TRPCError && error.cause instanceof DomainError ? error.cause : error;
  if (domain instanceof DomainError) {
    return {
      status: domain.status,
      headers: domain.headers,
      body: {
        statusCode: domain.status,
        error: domain.errorName,
        message: domain.message,
        ...domain.details,
      },
    };
  }
  if (!(error instanceof TRPCError))
    return { status: 500, headers: {}, body: apiErrorBody(500, "internal error") };
  const status = getHTTPStatusCodeFromError(error);
  // A schema's issues are the client's only when its input failed: the answer's own failing (a 500) is ours.
  const issues =
    error.code === "BAD_REQUEST" && error.cause instanceof ZodError
      ? apiIssuesOf(error.cause, dottedPath, input)
      : undefined;
  const message = issues
    ? invalidRequestMessage(issues)
    : error.code === "PARSE_ERROR"
      ? "the body is not valid JSON"
      : error.code === "INTERNAL_SERVER_ERROR"
        ? "internal error"
        : error.message;
  return { status, headers: {}, body: apiErrorBody(status, message, issues) };
}

interface DefaultErrorShape {
  message: string;
  code: number;
  data: { code: TRPC_ERROR_CODE_KEY; httpStatus: number };
}

/**
 * The `errorFormatter` of both services' tRPC instances: `data.body` is the
 * API error body (apiErrorOf), the same over tRPC as over REST; never a stack
 * trace or an internal message.
 */
export function formatTrpcError({ error, shape }: { error: TRPCError; shape: DefaultErrorShape }) {
  const { body } = apiErrorOf(error);
  return {
    message: body.message,
    code: shape.code,
    data: { code: shape.data.code, httpStatus: shape.data.httpStatus, body },
  };
}

const TRPC_CODE_BY_STATUS: Record<DomainStatus, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  412: "PRECONDITION_FAILED",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

/**
 * A procedure's result with its failure in tRPC's terms, for the middleware
 * that wraps every procedure: a DomainError keeps its status on tRPC's
 * transport too (tRPC makes anything it does not know a 500), and a database
 * that did not answer is the 503 (serviceUnavailable), not a 500.
 */
export function domainErrorsForTrpc<R extends { ok: boolean }>(
  result: R,
  isUnavailable: (cause: unknown) => boolean,
): R {
  if (result.ok) return result;
  const error = trpcErrorFor((result as { error?: { cause?: unknown } }).error?.cause, isUnavailable);
  if (error) throw error;
  return result;
}

/** What a procedure's middleware throws for `cause` (see domainErrorsForTrpc), or null: tRPC's own answer stands. */
export function trpcErrorFor(cause: unknown, isUnavailable: (cause: unknown) => boolean): TRPCError | null {
  const domain =
    cause instanceof DomainError ? cause : isUnavailable(cause) ? serviceUnavailable(undefined, cause) : null;
  return domain ? trpcErrorOf(domain) : null;
}

/** A DomainError as tRPC throws it, with the code of its status (for code outside any procedure: a context). */
export function trpcErrorOf(domain: DomainError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_BY_STATUS[domain.status], message: domain.message, cause: domain });
}

import { apiErrorBody, DATABASE_UNAVAILABLE, type ApiIssue } from "./api-error.ts";

/** A request as the REST handler reads it, whichever server received it. */
export interface RestRequest {
  method: string;
  /** Path and query as sent, still percent-encoded: `/me/resume?format=markdown`. */
  target: string;
  headers: { get(name: string): string | null };
  /** The raw body, "" when there is none (for signature checks and JSON parsing). */
  body: string;
}

/** The query of a request target: all after its first "?" (a later "?" belongs to a value). */
export function queryParamsOf(target: string): URLSearchParams {
  const question = target.indexOf("?");
  return new URLSearchParams(question < 0 ? "" : target.slice(question + 1));
}

/** An HTTP answer, before it is sent. */
export interface RestResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** An answer, whether built now or kept from an earlier request (a Buffer body). */
export type Answer = Omit<RestResponse, "body"> & { body: string | Buffer };

export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): RestResponse {
  return {
    status,
    headers: { ...headers, "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify(body),
  };
}

/** An answer with the one error body of both services (README, "Errors"). */
export function errorAnswer(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  issues?: ApiIssue[],
): RestResponse {
  return jsonAnswer(status, apiErrorBody(status, message, issues), headers);
}

/** The methods that only read: HEAD is answered wherever GET is (README, "Resume service"). */
export const READ_METHODS: readonly string[] = ["GET", "HEAD"];

/** A 405 naming in Allow the methods `where` takes. */
export function methodNotAllowedAnswer(
  method: string,
  where: string,
  allowed: readonly string[],
): RestResponse {
  return errorAnswer(405, `${method} is not allowed on ${where}`, { allow: allowed.join(", ") });
}

/**
 * The answer to an error that no procedure turned into one: 503 when it says
 * the database did not answer (so that clients retry), else 500; never its message.
 */
export function failureAnswer(
  error: unknown,
  isDatabaseUnavailable: (error: unknown) => boolean,
  headers: Record<string, string> = {},
): RestResponse {
  return isDatabaseUnavailable(error)
    ? errorAnswer(503, DATABASE_UNAVAILABLE, headers)
    : errorAnswer(500, "internal error", headers);
}

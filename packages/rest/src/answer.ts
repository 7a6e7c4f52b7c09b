import { apiErrorBody, apiErrorOf, type ApiIssue } from "./api-error.ts";
import { serviceUnavailable } from "./domain-error.ts";
import type { RequestTarget } from "./request-target.ts";

/** A request as the REST handler reads it, whichever server received it. */
export interface RestRequest {
  method: string;
  target: RequestTarget;
  headers: { get(name: string): string | null };
  /** The raw body, empty when there is none (for signature checks; the REST edge reads it as UTF-8 JSON). */
  body: Buffer;
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

/** An answer with the one error body of both services (docs/resume-api.md, "Errors"). */
export function errorAnswer(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  issues?: ApiIssue[],
): RestResponse {
  return jsonAnswer(status, apiErrorBody(status, message, issues), headers);
}

/** The methods that only read: HEAD is answered wherever GET is (docs/resume-api.md, "Methods"). */
export const READ_METHODS: readonly string[] = ["GET", "HEAD"];

/** A 405 naming in Allow the methods `where` takes. */
export function methodNotAllowedAnswer(
  method: string,
  where: string,
  allowed: readonly string[],
): RestResponse {
  return errorAnswer(405, `${method} is not allowed on ${where}`, { allow: allowed.join(", ") });
}

/** The answer to any error, by the one map of both services (apiErrorOf). */
export function errorAnswerOf(error: unknown): RestResponse {
  const { status, body, headers } = apiErrorOf(error);
  return jsonAnswer(status, body, headers);
}

/**
 * The answer to an error that no procedure turned into one: 503 when it says
 * the database did not answer (so that clients retry), else what the map says
 * (a 500 for anything unexpected, never its message).
 */
export function failureAnswer(
  error: unknown,
  isDatabaseUnavailable: (error: unknown) => boolean,
): RestResponse {
  return errorAnswerOf(isDatabaseUnavailable(error) ? serviceUnavailable(undefined, error) : error);
}

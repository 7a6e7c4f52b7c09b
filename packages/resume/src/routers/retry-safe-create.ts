import { idempotencyKeyHeader, type ResponseControl } from "@app/rest";

/**
 * What the creates of /me (an entry, a tailored version, a share link) share
 * about their Idempotency-Key (docs/resume-api.md, "Retry-safe creates").
 */
export const RESUME_KEY_HEADER = idempotencyKeyHeader(
  "scoped to the caller across the creates of /me and kept at least 24 h",
);

export const KEY_REUSED_ERROR = {
  422: "IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with another body or on another route.",
};

/** A create's answer: what it made (or the first create's answer again), with its Location. */
export function answerCreated<T>(
  response: ResponseControl,
  location: string,
  { made, replayed }: { made: T; replayed: boolean },
): T {
  response.headers.set("Location", location);
  if (replayed) response.headers.set("Idempotent-Replayed", "true");
  return made;
}

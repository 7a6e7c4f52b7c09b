import { z } from "zod";
import { DomainError } from "./domain-error.ts";

const USABLE_KEY = /^[\x21-\x7e]{1,255}$/;
const MESSAGE = "Idempotency-Key must be 1-255 visible ASCII characters";

/**
 * The Idempotency-Key header of a retry-safe create, for its OpenAPI
 * description; `scope` says whose keys it shares and how long they are kept.
 */
export function idempotencyKeyHeader(scope: string) {
  return z.object({
    "idempotency-key": z
      .string()
      .regex(USABLE_KEY, MESSAGE)
      .optional()
      .meta({
        description: `1-255 visible ASCII characters, ${scope}: send a new one with each create and the same one when retrying it.`,
      }),
  });
}

/** The Idempotency-Key of a create: absent (null), or 1-255 visible ASCII characters (anything else is a 400). */
export function idempotencyKeyOf(header: string | null): string | null {
  if (header === null) return null;
  if (!USABLE_KEY.test(header)) throw new DomainError(400, MESSAGE);
  return header;
}

/** What a retry-safe create's description says, `instead` of what ("adding a second entry"). */
export const retrySafeDescription = (instead: string): string =>
  "With an Idempotency-Key, a retry with the same key and body answers the first create's 201 again " +
  `(Idempotent-Replayed: true) instead of ${instead}.`;

/** The success header of a retry-safe create's replay. */
export const REPLAYED_HEADER = {
  "Idempotent-Replayed":
    "`true` when this is the first create's answer again, for a repeated Idempotency-Key.",
};

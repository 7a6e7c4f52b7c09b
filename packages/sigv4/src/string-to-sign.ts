import type { CredentialScope } from "./parse-authorization.ts";
import { sha256Hex } from "./sha256-hex.ts";

export const SIGV4_ALGORITHM = "AWS4-HMAC-SHA256";

/**
 * What the signing key signs: the algorithm, x-amz-date as sent (the
 * string, not the time it names), the credential scope and the canonical
 * request's SHA-256.
 */
export function stringToSignOf(amzDate: string, scope: CredentialScope, canonicalRequest: string): string {
  const [date, region, service, terminator] = scope;
  return `${SIGV4_ALGORITHM}\n${amzDate}\n${date}/${region}/${service}/${terminator}\n${sha256Hex(canonicalRequest)}`;
}

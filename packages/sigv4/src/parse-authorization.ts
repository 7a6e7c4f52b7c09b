import { SigV4Error } from "./sigv4-error.ts";
import { SIGV4_ALGORITHM } from "./string-to-sign.ts";

/** DATE/REGION/SERVICE/aws4_request, as the signer wrote it. */
export type CredentialScope = [date: string, region: string, service: string, terminator: string];

/** What `Authorization: AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...` says. */
export interface SigV4Authorization {
  accessKeyId: string;
  scope: CredentialScope;
  /** Lower-case names, in the signer's order. */
  signedHeaders: string[];
  /** 64 lower-case hex digits. */
  signature: string;
}

/**
 * The signature is taken from the Authorization header only: a presigned
 * URL carries a working signature where logs, proxies and histories keep it.
 */
export function refusePresignedUrl(query: string): void {
  if (/(^|&)x-amz-(signature|credential)=/i.test(query)) {
    throw new SigV4Error(
      "MissingAuthenticationToken",
      "presigned URLs are not accepted; sign the Authorization header",
    );
  }
}

/** Signers send each of the three once; a field more is one that another reader may take otherwise. */
const AUTHORIZATION_FIELDS = new Set(["Credential", "SignedHeaders", "Signature"]);

/** The fields of the Authorization header, given its lines as received. */
export function parseAuthorization(lines: readonly string[] | undefined): SigV4Authorization {
  const sent = lines ?? [];
  if (!sent[0]) throw new SigV4Error("MissingAuthenticationToken", "missing Authorization header");
  // Of two lines, which one counts would be a guess, and a proxy in front may guess the other.
  if (sent.length > 1) {
    throw new SigV4Error(
      "AuthorizationHeaderMalformed",
      `malformed Authorization header: send one Authorization header, not ${sent.length}`,
    );
  }
  const value = sent[0];
  const malformed = (why: string) =>
    new SigV4Error("AuthorizationHeaderMalformed", `malformed Authorization header: ${why}`);
  const space = value.indexOf(" ");
  if (space < 0 || value.slice(0, space) !== SIGV4_ALGORITHM) {
    throw malformed(`the algorithm must be ${SIGV4_ALGORITHM}`);
  }
  const fields = new Map<string, string>();
  for (const part of value.slice(space + 1).split(",")) {
    const [key, ...rest] = part.trim().split("=");
    if (!key || rest.length === 0) throw malformed(`cannot read "${part.trim()}"`);
    if (!AUTHORIZATION_FIELDS.has(key)) throw malformed(`unknown field "${key}"`);
    if (fields.has(key)) throw malformed(`${key} is sent twice`);
    fields.set(key, rest.join("="));
  }
  const credential = fields.get("Credential")?.split("/");
  const signedHeaders = fields.get("SignedHeaders")?.split(";");
  const signature = fields.get("Signature");
  if (!credential || credential.length !== 5 || credential.some((p) => p === "")) {
    throw malformed("Credential must be KEY/DATE/REGION/SERVICE/aws4_request");
  }
  if (!signedHeaders || signedHeaders.some((h) => !/^[a-z0-9-]+$/.test(h))) {
    throw malformed("SignedHeaders must be lower-case header names separated by ;");
  }
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) throw malformed("Signature must be 64 hex digits");
  const [accessKeyId, ...scope] = credential as [string, ...CredentialScope];
  return { accessKeyId, scope, signedHeaders, signature };
}

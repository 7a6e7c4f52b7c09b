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
  const space = value.indexOf(" ");
  if (space < 0 || value.slice(0, space) !== SIGV4_ALGORITHM) {
    throw malformed(`the algorithm must be ${SIGV4_ALGORITHM}`);
  }
  // Signers send each of the three once; a field more is one that another reader may take otherwise.
  const fields: Record<AuthorizationField, string | undefined> = {
    Credential: undefined,
    SignedHeaders: undefined,
    Signature: undefined,
  };
  for (const part of value.slice(space + 1).split(",")) {
    const field = part.trim();
    const equals = field.indexOf("=");
    if (equals <= 0) throw malformed(`cannot read "${field}"`);
    const key = field.slice(0, equals);
    if (!isAuthorizationField(key)) throw malformed(`unknown field "${key}"`);
    if (fields[key] !== undefined) throw malformed(`${key} is sent twice`);
    fields[key] = field.slice(equals + 1);
  }
  const credential = fields.Credential?.split("/");
  if (!credential || credential.length !== 5 || credential.includes("")) {
    throw malformed("Credential must be KEY/DATE/REGION/SERVICE/aws4_request");
  }
  if (fields.SignedHeaders === undefined || !SIGNED_HEADERS.test(fields.SignedHeaders)) {
    throw malformed("SignedHeaders must be lower-case header names separated by ;");
  }
  const signature = fields.Signature;
  if (!signature || !SIGNATURE.test(signature)) throw malformed("Signature must be 64 hex digits");
  return {
    accessKeyId: credential[0]!,
    scope: credential.slice(1) as CredentialScope,
    signedHeaders: fields.SignedHeaders.split(";"),
    signature,
  };
}

type AuthorizationField = "Credential" | "SignedHeaders" | "Signature";
const isAuthorizationField = (key: string): key is AuthorizationField =>
  key === "Credential" || key === "SignedHeaders" || key === "Signature";
const SIGNED_HEADERS = /^[a-z0-9-]+(?:;[a-z0-9-]+)*$/;
const SIGNATURE = /^[0-9a-f]{64}$/;

function malformed(why: string): SigV4Error {
  return new SigV4Error("AuthorizationHeaderMalformed", `malformed Authorization header: ${why}`);
}

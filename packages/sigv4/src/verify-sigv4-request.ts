import { canonicalHeadersOf, canonicalRequestsOf } from "./canonical-request.ts";
import { credentialOf, type Credential, type CredentialStore } from "./credentials.ts";
import { parseAuthorization, refusePresignedUrl } from "./parse-authorization.ts";
import { payloadHashOf } from "./payload-hash.ts";
import type { ReceivedRequest } from "./received-request.ts";
import { checkClockSkew, requestDateOf } from "./request-date.ts";
import { splitTarget } from "./request-target.ts";
import { signatureMatches } from "./signature.ts";
import { checkCredentialScope, checkRequiredSignedHeaders } from "./signature-scope.ts";
import { SigV4Error } from "./sigv4-error.ts";
import { createSigningKeyCache } from "./signing-key-cache.ts";
import { stringToSignOf } from "./string-to-sign.ts";

export interface VerifyOptions {
  credentials: CredentialStore;
  region: string;
  service: string;
  now?: Date;
  /** Headers (lower case) that must be signed when sent (checkRequiredSignedHeaders). */
  signedWhenSent?: readonly string[];
}

/** Derived signing keys, kept between requests (four HMACs each otherwise). */
const signingKeys = createSigningKeyCache();

/**
 * Verifies an AWS Signature Version 4 `Authorization` header the way AWS
 * does (compare MinIO's cmd/signature-v4.go). Returns the credential that
 * signed; throws a SigV4Error otherwise, the first step's that refuses, so
 * the order of the steps is what a request failing several of them is told.
 *
 * The steps are ours, on node:crypto, not `@smithy/signature-v4`'s (the
 * tests sign with it, so a second implementation checks ours): it is a
 * signer, whose canonical request and string to sign are protected methods
 * of an asynchronous class that chooses what to sign (never `user-agent`,
 * one value per header, one spelling of the path and query). A verifier
 * rebuilds what the client chose: its list of signed headers, every line
 * of each, and the spellings real clients sign.
 */
export function verifySigV4Request(request: ReceivedRequest, options: VerifyOptions): Credential {
  const [path, query] = splitTarget(request.target);
  refusePresignedUrl(query);
  const authorization = parseAuthorization(request.headers.authorization);
  const { amzDate, signedAt } = requestDateOf(request.headers);
  const credential = credentialOf(options.credentials, authorization.accessKeyId);
  checkCredentialScope(authorization.scope, amzDate, options);
  checkRequiredSignedHeaders(authorization.signedHeaders, request.headers, options.signedWhenSent);
  checkClockSkew(signedAt, options.now ?? new Date());
  const { signedHeaders, scope } = authorization;
  const payloadHash = payloadHashOf(request);
  const canonicalHeaders = canonicalHeadersOf(request.headers, signedHeaders);
  const sent = { method: request.method, path, query, canonicalHeaders, signedHeaders, payloadHash };

  const [date, region, service] = scope;
  const signingKey = signingKeys.signingKey(credential.secretAccessKey, date, region, service);
  const sentSignature = Buffer.from(authorization.signature, "hex");
  for (const canonicalRequest of canonicalRequestsOf(sent)) {
    const stringToSign = stringToSignOf(amzDate, scope, canonicalRequest);
    if (signatureMatches(sentSignature, signingKey, stringToSign)) return credential;
  }
  throw new SigV4Error("SignatureDoesNotMatch", "the signature does not match the request");
}

import { createHmac, timingSafeEqual } from "node:crypto";

export function signatureOf(signingKey: Buffer, stringToSign: string): Buffer {
  return createHmac("sha256", signingKey).update(stringToSign).digest();
}

/**
 * Whether `sent` (the Authorization header's signature, decoded) is the
 * signature of `stringToSign`. Compared in constant time: a comparison that
 * stops at the first differing byte tells a caller who measures it how many
 * leading bytes of a forged signature are right.
 */
export function signatureMatches(sent: Buffer, signingKey: Buffer, stringToSign: string): boolean {
  const signature = signatureOf(signingKey, stringToSign);
  // Unreachable from verifySigV4Request (Signature is parsed as 64 hex digits); timingSafeEqual would throw.
  if (sent.length !== signature.length) return false;
  return timingSafeEqual(signature, sent);
}

import { headerValue, type ReceivedRequest } from "./received-request.ts";
import { sha256Hex } from "./sha256-hex.ts";
import { SigV4Error } from "./sigv4-error.ts";

/**
 * The body's SHA-256, the last line of the canonical request. Always that of
 * the body received, never what x-amz-content-sha256 claims: a claimed hash
 * that does not match, UNSIGNED-PAYLOAD among them, would let a signature
 * cover a body it never saw.
 */
export function payloadHashOf(request: Pick<ReceivedRequest, "headers" | "body">): string {
  const payloadHash = sha256Hex(request.body);
  const declaredHash = headerValue(request.headers, "x-amz-content-sha256");
  if (declaredHash !== undefined && declaredHash.toLowerCase() !== payloadHash) {
    throw new SigV4Error(
      "SignatureDoesNotMatch",
      /^[0-9a-f]{64}$/i.test(declaredHash)
        ? "x-amz-content-sha256 does not match the body"
        : "x-amz-content-sha256 must be the body's SHA-256 (UNSIGNED-PAYLOAD is not accepted)",
    );
  }
  return payloadHash;
}

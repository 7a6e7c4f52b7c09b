import type { CredentialScope } from "./parse-authorization.ts";
import type { ReceivedHeaders } from "./received-request.ts";
import { SigV4Error } from "./sigv4-error.ts";

/**
 * A signature is for one day, region and service: a key signing for another
 * service or region must not be good here, and the day must be that of
 * x-amz-date, which the clock check then bounds.
 */
export function checkCredentialScope(
  [date, region, service, terminator]: CredentialScope,
  amzDate: string,
  expected: { region: string; service: string },
): void {
  if (date !== amzDate.slice(0, 8) || terminator !== "aws4_request") {
    throw new SigV4Error("SignatureDoesNotMatch", "the credential scope does not match x-amz-date");
  }
  if (region !== expected.region || service !== expected.service) {
    throw new SigV4Error(
      "SignatureDoesNotMatch",
      `the credential scope must name region ${expected.region} and service ${expected.service}`,
    );
  }
}

/**
 * The signer chooses what it signs, but a signature that leaves out host
 * could be sent to another server taking the same key, and one that leaves
 * out x-amz-date could be replayed with any date. Of `signedWhenSent` (the
 * service's headers that change what a request does), one sent must be
 * signed too: a copy of the request could otherwise carry another value.
 */
export function checkRequiredSignedHeaders(
  signedHeaders: readonly string[],
  sent: ReceivedHeaders,
  signedWhenSent: readonly string[] = [],
): void {
  for (const required of ["host", "x-amz-date"]) {
    if (!signedHeaders.includes(required)) {
      throw new SigV4Error("SignatureDoesNotMatch", `${required} must be a signed header`);
    }
  }
  for (const name of signedWhenSent) {
    if (sent[name] !== undefined && !signedHeaders.includes(name)) {
      throw new SigV4Error("SignatureDoesNotMatch", `${name} is sent, so it must be a signed header`);
    }
  }
}

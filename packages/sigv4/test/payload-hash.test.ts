import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { payloadHashOf } from "../src/payload-hash.ts";
import { suiteCases } from "./aws-sigv4-suite.ts";
import { refusalOf } from "./refusal.ts";

const BODY = Buffer.from('{"name":"cash"}');
const BODY_HASH = createHash("sha256").update(BODY).digest("hex");

describe("payloadHashOf, against the suite", () => {
  for (const { name, signedRequest, canonicalRequest } of suiteCases) {
    it(`hashes ${name}'s body as its canonical request's last line`, () => {
      expect(payloadHashOf(signedRequest)).toBe(canonicalRequest.payloadHash);
    });
  }

  it("includes cases that send x-amz-content-sha256", () => {
    const declaring = suiteCases.filter((c) => c.signedRequest.headers["x-amz-content-sha256"]);
    expect(declaring.map((c) => c.name)).toEqual([
      "post-x-www-form-urlencoded",
      "post-x-www-form-urlencoded-parameters",
    ]);
  });
});

describe("payloadHashOf", () => {
  it("accepts x-amz-content-sha256 when it is the body's hash, in either case of hex digits", () => {
    for (const declared of [BODY_HASH, BODY_HASH.toUpperCase()]) {
      expect(payloadHashOf({ headers: { "x-amz-content-sha256": [declared] }, body: BODY })).toBe(BODY_HASH);
    }
  });

  it("refuses another hash: 403 SignatureDoesNotMatch", () => {
    const otherBody = createHash("sha256").update("{}").digest("hex");
    for (const declared of ["0".repeat(64), otherBody]) {
      expect(
        refusalOf(() => payloadHashOf({ headers: { "x-amz-content-sha256": [declared] }, body: BODY })),
      ).toEqual({
        status: 403,
        errorName: "SignatureDoesNotMatch",
        message: "x-amz-content-sha256 does not match the body",
      });
    }
  });

  it("refuses what is no hash, UNSIGNED-PAYLOAD and streaming among them, and the hash sent twice", () => {
    for (const lines of [
      ["UNSIGNED-PAYLOAD"],
      ["STREAMING-AWS4-HMAC-SHA256-PAYLOAD"],
      [""],
      [BODY_HASH, BODY_HASH],
    ]) {
      expect(
        refusalOf(() => payloadHashOf({ headers: { "x-amz-content-sha256": lines }, body: BODY })),
      ).toEqual({
        status: 403,
        errorName: "SignatureDoesNotMatch",
        message: "x-amz-content-sha256 must be the body's SHA-256 (UNSIGNED-PAYLOAD is not accepted)",
      });
    }
  });
});

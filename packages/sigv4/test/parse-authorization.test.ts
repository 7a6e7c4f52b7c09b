import { describe, expect, it } from "vitest";
import { parseAuthorization, refusePresignedUrl } from "../src/parse-authorization.ts";
import { splitTarget } from "../src/request-target.ts";
import { SUITE_CASE_COUNT, suiteCases } from "./aws-sigv4-suite.ts";
import { refusalOf } from "./refusal.ts";

const SIGNED =
  "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, " +
  "SignedHeaders=host;x-amz-date, " +
  "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31";

describe("parseAuthorization, against the suite", () => {
  it(`has every case of the suite (${SUITE_CASE_COUNT})`, () => {
    expect(suiteCases.length).toBe(SUITE_CASE_COUNT);
  });

  for (const { name, context, signedRequest, canonicalRequest, stringToSign, signature } of suiteCases) {
    it(`reads ${name}'s Authorization as its other files have it`, () => {
      const authorization = parseAuthorization(signedRequest.headers.authorization);
      expect(authorization).toEqual({
        accessKeyId: context.credentials.access_key_id,
        scope: stringToSign.split("\n")[2]!.split("/"),
        signedHeaders: canonicalRequest.signedHeaders,
        signature,
      });
    });
  }
});

describe("refusePresignedUrl, against the suite", () => {
  for (const { name, signedRequest, presignedRequest } of suiteCases) {
    it(`refuses ${name} presigned, not signed in its header`, () => {
      expect(refusalOf(() => refusePresignedUrl(splitTarget(presignedRequest.target)[1]))).toEqual({
        status: 403,
        errorName: "MissingAuthenticationToken",
        message: "presigned URLs are not accepted; sign the Authorization header",
      });
      expect(() => refusePresignedUrl(splitTarget(signedRequest.target)[1])).not.toThrow();
    });
  }

  it("refuses a query naming either field of a presigned URL, in any case; a value that only looks so is fine", () => {
    for (const query of ["X-Amz-Signature=00", "a=1&x-amz-credential=x", "X-AMZ-CREDENTIAL="]) {
      expect(refusalOf(() => refusePresignedUrl(query)).errorName, query).toBe("MissingAuthenticationToken");
    }
    for (const query of ["", "a=x-amz-signature=1", "x-amz-signatures=1", "X-Amz-Date=20150830T123600Z"]) {
      expect(() => refusePresignedUrl(query), query).not.toThrow();
    }
  });
});

describe("parseAuthorization refuses", () => {
  it("no header, or an empty one: 403 MissingAuthenticationToken", () => {
    for (const lines of [undefined, [], [""]]) {
      expect(refusalOf(() => parseAuthorization(lines))).toEqual({
        status: 403,
        errorName: "MissingAuthenticationToken",
        message: "missing Authorization header",
      });
    }
  });

  it("two lines, even two equal ones: 400", () => {
    expect(refusalOf(() => parseAuthorization([SIGNED, SIGNED]))).toEqual({
      status: 400,
      errorName: "AuthorizationHeaderMalformed",
      message: "malformed Authorization header: send one Authorization header, not 2",
    });
  });

  it("what it cannot read, each with its reason: 400", () => {
    const signature = SIGNED.slice(-64);
    const cases: [string, string][] = [
      ["Bearer abc.def.ghi", "the algorithm must be AWS4-HMAC-SHA256"],
      ["AWS4-HMAC-SHA256", "the algorithm must be AWS4-HMAC-SHA256"],
      [
        SIGNED.replace("AWS4-HMAC-SHA256", "AWS4-ECDSA-P256-SHA256"),
        "the algorithm must be AWS4-HMAC-SHA256",
      ],
      ["AWS4-HMAC-SHA256 garbage", 'cannot read "garbage"'],
      [`${SIGNED},`, 'cannot read ""'],
      [`${SIGNED}, Extra=1`, 'unknown field "Extra"'],
      [SIGNED.replace("Credential=", "credential="), 'unknown field "credential"'],
      [`${SIGNED}, Signature=${signature}`, "Signature is sent twice"],
      [`${SIGNED}, ${SIGNED}`, 'unknown field "AWS4-HMAC-SHA256 Credential"'],
      [SIGNED.replace(/, Signature=.*/, ""), "Signature must be 64 hex digits"],
      [SIGNED.replace(signature, signature.toUpperCase()), "Signature must be 64 hex digits"],
      [SIGNED.replace(signature, signature.slice(1)), "Signature must be 64 hex digits"],
      [SIGNED.replace("/aws4_request", ""), "Credential must be KEY/DATE/REGION/SERVICE/aws4_request"],
      [SIGNED.replace("/us-east-1/", "//"), "Credential must be KEY/DATE/REGION/SERVICE/aws4_request"],
      [
        SIGNED.replace("SignedHeaders=host;x-amz-date, ", ""),
        "SignedHeaders must be lower-case header names separated by ;",
      ],
      [SIGNED.replace("host;", "Host;"), "SignedHeaders must be lower-case header names separated by ;"],
      [SIGNED.replace("host;", "host;;"), "SignedHeaders must be lower-case header names separated by ;"],
      [SIGNED.replace("host;", "my_header;"), "SignedHeaders must be lower-case header names separated by ;"],
    ];
    for (const [authorization, why] of cases) {
      expect(
        refusalOf(() => parseAuthorization([authorization])),
        authorization,
      ).toEqual({
        status: 400,
        errorName: "AuthorizationHeaderMalformed",
        message: `malformed Authorization header: ${why}`,
      });
    }
  });

  it("reads the fields in any order, with or without spaces after the commas", () => {
    const [credential, signedHeaders, signature] = SIGNED.slice("AWS4-HMAC-SHA256 ".length).split(", ");
    const expected = parseAuthorization([SIGNED]);
    expect(parseAuthorization([`AWS4-HMAC-SHA256 ${signature},${credential},${signedHeaders}`])).toEqual(
      expected,
    );
  });
});

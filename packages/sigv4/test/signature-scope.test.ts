import { describe, expect, it } from "vitest";
import type { CredentialScope } from "../src/parse-authorization.ts";
import { checkCredentialScope, checkRequiredSignedHeaders } from "../src/signature-scope.ts";
import { suiteCases } from "./aws-sigv4-suite.ts";
import { refusalOf } from "./refusal.ts";

const SCOPE: CredentialScope = ["20150830", "us-east-1", "service", "aws4_request"];
const AMZ_DATE = "20150830T123600Z";
const HERE = { region: "us-east-1", service: "service" };

describe("checkCredentialScope and checkRequiredSignedHeaders, against the suite", () => {
  for (const { name, context, canonicalRequest, stringToSign } of suiteCases) {
    it(`accept ${name}'s scope and signed headers`, () => {
      const [, amzDate = "", scope = ""] = stringToSign.split("\n");
      expect(() => checkCredentialScope(scope.split("/") as CredentialScope, amzDate, context)).not.toThrow();
      expect(() => checkRequiredSignedHeaders(canonicalRequest.signedHeaders, {})).not.toThrow();
    });
  }
});

describe("checkCredentialScope refuses: 403 SignatureDoesNotMatch", () => {
  it("a scope of another day than x-amz-date, or without aws4_request", () => {
    for (const [scope, amzDate] of [
      [["20150831", "us-east-1", "service", "aws4_request"], AMZ_DATE],
      [SCOPE, "20150831T000000Z"],
      [["20150830", "us-east-1", "service", "aws4_request2"], AMZ_DATE],
      [["20150830", "us-east-1", "service", "AWS4_REQUEST"], AMZ_DATE],
    ] as [CredentialScope, string][]) {
      expect(
        refusalOf(() => checkCredentialScope(scope, amzDate, HERE)),
        scope.join("/"),
      ).toEqual({
        status: 403,
        errorName: "SignatureDoesNotMatch",
        message: "the credential scope does not match x-amz-date",
      });
    }
  });

  it("a scope of another region or service, naming the ones it must be", () => {
    for (const scope of [
      ["20150830", "eu-west-1", "service", "aws4_request"],
      ["20150830", "us-east-1", "s3", "aws4_request"],
      ["20150830", "US-EAST-1", "service", "aws4_request"],
    ] as CredentialScope[]) {
      expect(
        refusalOf(() => checkCredentialScope(scope, AMZ_DATE, HERE)),
        scope.join("/"),
      ).toEqual({
        status: 403,
        errorName: "SignatureDoesNotMatch",
        message: "the credential scope must name region us-east-1 and service service",
      });
    }
  });

  it("the day before the region: a scope wrong in both is told about the day", () => {
    const scope: CredentialScope = ["20150831", "eu-west-1", "s3", "aws4_request"];
    expect(refusalOf(() => checkCredentialScope(scope, AMZ_DATE, HERE)).message).toBe(
      "the credential scope does not match x-amz-date",
    );
  });
});

describe("checkRequiredSignedHeaders refuses: 403 SignatureDoesNotMatch", () => {
  it("a signature that does not cover host, or x-amz-date", () => {
    for (const [signedHeaders, missing] of [
      [["x-amz-date"], "host"],
      [["content-type", "x-amz-date"], "host"],
      [["host"], "x-amz-date"],
      [["date", "host"], "x-amz-date"],
      [[], "host"],
    ] as [string[], string][]) {
      expect(
        refusalOf(() => checkRequiredSignedHeaders(signedHeaders, {})),
        signedHeaders.join(";"),
      ).toEqual({
        status: 403,
        errorName: "SignatureDoesNotMatch",
        message: `${missing} must be a signed header`,
      });
    }
  });

  it("a header of the service's that is sent but not signed; one not sent may be left out", () => {
    const signed = ["host", "x-amz-date"];
    expect(
      refusalOf(() => checkRequiredSignedHeaders(signed, { "idempotency-key": ["k"] }, ["idempotency-key"])),
    ).toEqual({
      status: 403,
      errorName: "SignatureDoesNotMatch",
      message: "idempotency-key is sent, so it must be a signed header",
    });
    expect(() => checkRequiredSignedHeaders(signed, {}, ["idempotency-key"])).not.toThrow();
    expect(() =>
      checkRequiredSignedHeaders([...signed, "idempotency-key"], { "idempotency-key": ["k"] }, [
        "idempotency-key",
      ]),
    ).not.toThrow();
  });
});

/**
 * The composition: every signed request of the suite accepted, and a
 * request failing several steps told about the first of them, the order
 * the server's answers depend on.
 */
import { describe, expect, it } from "vitest";
import type { ReceivedRequest } from "../src/received-request.ts";
import type { SigV4ErrorName } from "../src/sigv4-error.ts";
import { verifySigV4Request, type VerifyOptions } from "../src/verify-sigv4-request.ts";
import { SUITE_CASE_COUNT, suiteCases, suiteCredentials, type SuiteContext } from "./aws-sigv4-suite.ts";
import { refusalOf } from "./refusal.ts";

function optionsOf(context: SuiteContext): VerifyOptions {
  return {
    credentials: suiteCredentials(context),
    region: context.region,
    service: context.service,
    now: new Date(context.timestamp),
  };
}

describe("verifySigV4Request, against the suite", () => {
  it(`has every case of the suite (${SUITE_CASE_COUNT}), S3's unnormalised paths among them`, () => {
    expect(suiteCases.length).toBe(SUITE_CASE_COUNT);
    expect(suiteCases.filter((c) => !c.context.normalize).length).toBe(7);
  });

  for (const { name, context, signedRequest } of suiteCases) {
    it(`accepts ${name}'s signed request`, () => {
      expect(verifySigV4Request(signedRequest, optionsOf(context)).accessKeyId).toBe(
        context.credentials.access_key_id,
      );
    });
  }
});

interface Fault {
  fault: string;
  add: (request: ReceivedRequest, options: VerifyOptions) => void;
  refusal: `${number} ${SigV4ErrorName}: ${string}`;
}

const replaceInAuthorization = (from: string, to: string) => (request: ReceivedRequest) => {
  request.headers.authorization = [request.headers.authorization![0]!.replace(from, to)];
};

describe("verifySigV4Request refuses with the first step that refuses", () => {
  const [vanilla] = suiteCases.filter((c) => c.name === "post-vanilla");
  const { signedRequest, context } = vanilla!;
  const authorization = signedRequest.headers.authorization![0]!;

  /** Each added to the request with those above it, and a step earlier than theirs refuses it. */
  const faults: Fault[] = [
    {
      fault: "another signature",
      add: replaceInAuthorization(authorization.slice(-64), "0".repeat(64)),
      refusal: "403 SignatureDoesNotMatch: the signature does not match the request",
    },
    {
      fault: "a signed header not sent",
      add: replaceInAuthorization("x-amz-date,", "x-amz-date;x-note,"),
      refusal: "403 SignatureDoesNotMatch: signed header x-note is missing",
    },
    {
      fault: "another body hash",
      add: (r) => (r.headers["x-amz-content-sha256"] = ["0".repeat(64)]),
      refusal: "403 SignatureDoesNotMatch: x-amz-content-sha256 does not match the body",
    },
    {
      fault: "6 minutes later",
      add: (_, o) => (o.now = new Date(o.now!.getTime() + 6 * 60_000)),
      refusal: "403 RequestTimeTooSkewed: the request time differs from the server's by more than 5 minutes",
    },
    {
      fault: "host unsigned",
      add: replaceInAuthorization("host;", ""),
      refusal: "403 SignatureDoesNotMatch: host must be a signed header",
    },
    {
      fault: "another region",
      add: (_, o) => (o.region = "eu-west-1"),
      refusal:
        "403 SignatureDoesNotMatch: the credential scope must name region eu-west-1 and service service",
    },
    {
      fault: "another day in the scope",
      add: replaceInAuthorization("/20150830/", "/20150831/"),
      refusal: "403 SignatureDoesNotMatch: the credential scope does not match x-amz-date",
    },
    {
      fault: "an unknown access key",
      add: (_, o) => (o.credentials = new Map()),
      refusal: "403 InvalidAccessKeyId: the access key id is not known",
    },
    {
      fault: "x-amz-date in another format",
      add: (r) => (r.headers["x-amz-date"] = ["2015-08-30T12:36:00Z"]),
      refusal: "400 AuthorizationHeaderMalformed: x-amz-date must be sent as YYYYMMDDTHHMMSSZ",
    },
    {
      fault: "a field more in Authorization",
      add: replaceInAuthorization("Credential=", "Extra=1, Credential="),
      refusal: '400 AuthorizationHeaderMalformed: malformed Authorization header: unknown field "Extra"',
    },
    {
      fault: "Authorization twice",
      add: (r) => r.headers.authorization!.push(authorization),
      refusal:
        "400 AuthorizationHeaderMalformed: malformed Authorization header: send one Authorization header, not 2",
    },
    {
      fault: "Authorization empty",
      add: (r) => (r.headers.authorization = [""]),
      refusal: "403 MissingAuthenticationToken: missing Authorization header",
    },
    {
      fault: "presigned",
      add: (r) => (r.target = "/?X-Amz-Signature=0"),
      refusal:
        "403 MissingAuthenticationToken: presigned URLs are not accepted; sign the Authorization header",
    },
  ];

  it("accepts the request before any fault", () => {
    expect(verifySigV4Request(signedRequest, optionsOf(context)).principal).toBe("suite");
  });

  it("refuses it for each fault added, whatever the faults added before", () => {
    const request: ReceivedRequest = {
      ...signedRequest,
      headers: Object.fromEntries(Object.entries(signedRequest.headers).map(([k, v]) => [k, [...v!]])),
    };
    const options = optionsOf(context);
    for (const { fault, add, refusal } of faults) {
      add(request, options);
      const { status, errorName, message } = refusalOf(() => verifySigV4Request(request, options));
      expect(`${status} ${errorName}: ${message}`, fault).toBe(refusal);
    }
  });
});

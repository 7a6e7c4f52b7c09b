/**
 * AWS's SigV4 test suite (aws-signing-test-suite/v4 of awslabs/aws-c-auth,
 * Apache-2.0: LICENSE and NOTICE beside the cases in aws-sigv4-test-suite/),
 * each signed request handed to the verifier as a server receives it. Every
 * case whose signer normalises the path (every service but S3, so
 * execute-api) must be accepted, and refused once its signature is changed.
 * The presigned (query-signed) form of each case is refused by design: the
 * service takes only the Authorization header.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SigV4Error, verifySigV4Request, type ReceivedRequest } from "../src/index.ts";
import { parseSuiteRequest, type SuiteContext } from "./aws-sigv4-suite.ts";

const SUITE = path.join(import.meta.dirname, "aws-sigv4-test-suite");

const cases = readdirSync(SUITE, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => {
    const read = (file: string) => readFileSync(path.join(SUITE, entry.name, file), "utf8");
    return { name: entry.name, context: JSON.parse(read("context.json")) as SuiteContext, read };
  });

function verify(request: ReceivedRequest, context: SuiteContext) {
  const { access_key_id: accessKeyId, secret_access_key: secretAccessKey } = context.credentials;
  return verifySigV4Request(request, {
    credentials: new Map([[accessKeyId, { accessKeyId, secretAccessKey, principal: "suite", actions: [] }]]),
    region: context.region,
    service: context.service,
    now: new Date(context.timestamp),
  });
}

describe("AWS's SigV4 test suite", () => {
  const applicable = cases.filter((c) => c.context.normalize);
  it("has the cases of the suite (every one but S3's unnormalised paths applies)", () => {
    expect(applicable.length).toBe(31);
  });

  for (const { name, context, read } of applicable) {
    it(`accepts ${name}, and refuses it with another signature or presigned`, () => {
      const request = parseSuiteRequest(read("header-signed-request.txt"));
      expect(verify(request, context).accessKeyId).toBe(context.credentials.access_key_id);

      const authorization = request.headers.authorization![0]!;
      const last = authorization.at(-1) === "0" ? "1" : "0";
      const tampered = {
        ...request,
        headers: { ...request.headers, authorization: [authorization.slice(0, -1) + last] },
      };
      expect(() => verify(tampered, context)).toThrow(SigV4Error);

      const presigned = parseSuiteRequest(read("query-signed-request.txt"));
      expect(() => verify(presigned, context)).toThrow(
        expect.objectContaining({ errorName: "MissingAuthenticationToken" }),
      );
    });
  }
});

import { describe, expect, it } from "vitest";
import { parseAuthorization } from "../src/parse-authorization.ts";
import { requestDateOf } from "../src/request-date.ts";
import { stringToSignOf } from "../src/string-to-sign.ts";
import { suiteCases } from "./aws-sigv4-suite.ts";

describe("stringToSignOf, against the suite", () => {
  for (const { name, canonicalRequest, stringToSign, signedRequest } of suiteCases) {
    it(`makes ${name}'s string to sign of its canonical request, date and scope`, () => {
      const { amzDate } = requestDateOf(signedRequest.headers);
      const { scope } = parseAuthorization(signedRequest.headers.authorization);
      expect(stringToSignOf(amzDate, scope, canonicalRequest.text)).toBe(stringToSign);
    });
  }
});

import { describe, expect, it } from "vitest";
import { signatureMatches, signatureOf } from "../src/signature.ts";
import { deriveSigningKey } from "../src/signing-key-cache.ts";
import { suiteCases, type SuiteCase } from "./aws-sigv4-suite.ts";

function signingKeyOf({ context }: SuiteCase): Buffer {
  const date = context.timestamp.slice(0, 10).replaceAll("-", "");
  return deriveSigningKey(context.credentials.secret_access_key, date, context.region, context.service);
}

describe("signatureOf and signatureMatches, against the suite", () => {
  for (const suiteCase of suiteCases) {
    const { name, stringToSign, signature } = suiteCase;
    it(`sign ${name}'s string to sign as the suite does, and match its signature only`, () => {
      const signingKey = signingKeyOf(suiteCase);
      expect(signatureOf(signingKey, stringToSign).toString("hex")).toBe(signature);

      const sent = Buffer.from(signature, "hex");
      expect(signatureMatches(sent, signingKey, stringToSign)).toBe(true);
      for (let byte = 0; byte < sent.length; byte++) {
        const tampered = Buffer.from(sent);
        tampered[byte]! ^= 1;
        expect(signatureMatches(tampered, signingKey, stringToSign), `byte ${byte}`).toBe(false);
      }
      expect(signatureMatches(sent, signingKey, `${stringToSign} `)).toBe(false);
      expect(
        signatureMatches(
          sent,
          deriveSigningKey("another secret", "20150830", "us-east-1", "service"),
          stringToSign,
        ),
      ).toBe(false);
    });
  }
});

describe("signatureMatches", () => {
  it("is false for a signature of another length (the parsed header never has one)", () => {
    const [suiteCase] = suiteCases;
    const sent = Buffer.from(suiteCase!.signature, "hex");
    const signingKey = signingKeyOf(suiteCase!);
    for (const other of [sent.subarray(0, 31), Buffer.concat([sent, Buffer.from([0])]), Buffer.alloc(0)]) {
      expect(signatureMatches(other, signingKey, suiteCase!.stringToSign)).toBe(false);
    }
  });
});

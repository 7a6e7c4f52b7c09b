import { describe, expect, it } from "vitest";
import { credentialOf } from "../src/credentials.ts";
import { suiteCases, suiteCredentials } from "./aws-sigv4-suite.ts";
import { refusalOf } from "./refusal.ts";

describe("credentialOf", () => {
  it("finds the key each case of the suite signs with", () => {
    for (const { context } of suiteCases) {
      const key = context.credentials.access_key_id;
      expect(credentialOf(suiteCredentials(context), key).secretAccessKey).toBe(
        context.credentials.secret_access_key,
      );
    }
  });

  it("refuses a key it does not hold, its case changed included: 403 InvalidAccessKeyId", () => {
    const [{ context }] = suiteCases as [(typeof suiteCases)[number]];
    for (const key of ["AKIDOTHER", "akidexample", "AKIDEXAMPLE ", ""]) {
      expect(
        refusalOf(() => credentialOf(suiteCredentials(context), key)),
        key,
      ).toEqual({
        status: 403,
        errorName: "InvalidAccessKeyId",
        message: "the access key id is not known",
      });
    }
  });
});

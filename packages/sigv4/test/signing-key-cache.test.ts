import { describe, expect, it } from "vitest";
import { createSigningKeyCache, deriveSigningKey } from "../src/signing-key-cache.ts";

// AWS's published example ("Examples of how to derive a signing key for Signature Version 4").
const SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
const EXPECTED = "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d";

describe("signing key cache", () => {
  it("derives AWS's example key", () => {
    expect(deriveSigningKey(SECRET, "20120215", "us-east-1", "iam").toString("hex")).toBe(EXPECTED);
  });

  it("derives a key once per secret and scope, then reuses it", () => {
    const cache = createSigningKeyCache();
    const first = cache.signingKey(SECRET, "20120215", "us-east-1", "iam");
    expect(first.toString("hex")).toBe(EXPECTED);
    expect(cache.signingKey(SECRET, "20120215", "us-east-1", "iam")).toBe(first);
    expect(cache.size).toBe(1);
  });

  it("keeps the date, region, service and secret apart", () => {
    const cache = createSigningKeyCache();
    const keys = [
      cache.signingKey(SECRET, "20120215", "us-east-1", "iam"),
      cache.signingKey(SECRET, "20120216", "us-east-1", "iam"),
      cache.signingKey(SECRET, "20120215", "eu-west-1", "iam"),
      cache.signingKey(SECRET, "20120215", "us-east-1", "execute-api"),
      cache.signingKey(`${SECRET}2`, "20120215", "us-east-1", "iam"),
    ].map((key) => key.toString("hex"));
    expect(new Set(keys).size).toBe(5);
    expect(keys[1]).toBe(deriveSigningKey(SECRET, "20120216", "us-east-1", "iam").toString("hex"));
    expect(keys[4]).toBe(deriveSigningKey(`${SECRET}2`, "20120215", "us-east-1", "iam").toString("hex"));
  });

  it("holds at most its limit, dropping the oldest first", () => {
    const cache = createSigningKeyCache(2);
    const oldest = cache.signingKey(SECRET, "20120215", "us-east-1", "iam");
    cache.signingKey(SECRET, "20120216", "us-east-1", "iam");
    cache.signingKey(SECRET, "20120217", "us-east-1", "iam");
    expect(cache.size).toBe(2);
    const again = cache.signingKey(SECRET, "20120215", "us-east-1", "iam");
    expect(again).not.toBe(oldest);
    expect(again.equals(oldest)).toBe(true);
  });
});

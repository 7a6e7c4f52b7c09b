import { describe, expect, it } from "vitest";
import { checkClockSkew, requestDateOf } from "../src/request-date.ts";
import { suiteCases } from "./aws-sigv4-suite.ts";
import { refusalOf } from "./refusal.ts";

const MALFORMED = {
  status: 400,
  errorName: "AuthorizationHeaderMalformed",
  message: "x-amz-date must be sent as YYYYMMDDTHHMMSSZ",
};

describe("requestDateOf, against the suite", () => {
  for (const { name, context, signedRequest, stringToSign } of suiteCases) {
    it(`reads ${name}'s x-amz-date as its string to sign has it, at the suite's time`, () => {
      expect(requestDateOf(signedRequest.headers)).toEqual({
        amzDate: stringToSign.split("\n")[1],
        signedAt: new Date(context.timestamp),
      });
    });
  }
});

describe("requestDateOf refuses with a 400", () => {
  it("no x-amz-date (a Date header does not stand in for it)", () => {
    expect(refusalOf(() => requestDateOf({}))).toEqual(MALFORMED);
    expect(refusalOf(() => requestDateOf({ date: ["Sun, 30 Aug 2015 12:36:00 GMT"] }))).toEqual(MALFORMED);
    expect(refusalOf(() => requestDateOf({ "x-amz-date": [""] }))).toEqual(MALFORMED);
  });

  it("another format, a time that does not exist (day, month, hour, minute, second, a two-digit year), or two lines", () => {
    for (const lines of [
      ["2015-08-30T12:36:00Z"],
      ["20150830T123600"],
      ["20150830T123600z"],
      ["20150830 123600Z"],
      ["20150830T123600.000Z"],
      ["20150230T123600Z"],
      ["20150831T243600Z"],
      ["20150030T123600Z"],
      ["20151330T123600Z"],
      ["20150830T126000Z"],
      ["20150830T123660Z"],
      ["00150830T123600Z"],
      ["20150830T123600Z", "20150830T123600Z"],
    ]) {
      expect(
        refusalOf(() => requestDateOf({ "x-amz-date": lines })),
        lines.join(),
      ).toEqual(MALFORMED);
    }
  });
});

describe("checkClockSkew", () => {
  const signedAt = new Date("2015-08-30T12:36:00Z");
  const at = (offsetMs: number) => new Date(signedAt.getTime() + offsetMs);

  it("accepts a request signed up to 5 minutes before or after the server's clock", () => {
    for (const offset of [0, 5 * 60_000, -5 * 60_000, 299_999]) {
      expect(() => checkClockSkew(signedAt, at(offset)), String(offset)).not.toThrow();
    }
  });

  it("refuses one a millisecond further either way: 403 RequestTimeTooSkewed", () => {
    for (const offset of [5 * 60_000 + 1, -(5 * 60_000 + 1), 24 * 3_600_000]) {
      expect(
        refusalOf(() => checkClockSkew(signedAt, at(offset))),
        String(offset),
      ).toEqual({
        status: 403,
        errorName: "RequestTimeTooSkewed",
        message: "the request time differs from the server's by more than 5 minutes",
      });
    }
  });
});

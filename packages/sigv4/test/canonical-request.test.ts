import { describe, expect, it } from "vitest";
import {
  canonicalHeadersOf,
  canonicalPathsOf,
  canonicalQueriesOf,
  canonicalRequestOf,
  canonicalRequestsOf,
} from "../src/canonical-request.ts";
import { normalizeSigV4Path, splitTarget } from "../src/request-target.ts";
import { suiteCases } from "./aws-sigv4-suite.ts";
import { refusalOf } from "./refusal.ts";

const EMPTY_HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

describe("the canonical request, against the suite", () => {
  for (const { name, context, signedRequest, canonicalRequest } of suiteCases) {
    it(`builds ${name}'s canonical request among the spellings it tries`, () => {
      const [path, query] = splitTarget(signedRequest.target);
      const canonicalHeaders = canonicalHeadersOf(signedRequest.headers, canonicalRequest.signedHeaders);
      expect(canonicalHeaders).toBe(canonicalRequest.canonicalHeaders);
      // AWS's signers all sort the query; all but S3's normalise the path, then encode it once more.
      expect(canonicalQueriesOf(query)[0]).toBe(canonicalRequest.query);
      expect(canonicalPathsOf(context.normalize ? normalizeSigV4Path(path) : path)).toContain(
        canonicalRequest.path,
      );
      const spellings = [
        ...canonicalRequestsOf({
          method: signedRequest.method,
          path,
          query,
          canonicalHeaders,
          signedHeaders: canonicalRequest.signedHeaders,
          payloadHash: canonicalRequest.payloadHash,
        }),
      ];
      expect(spellings).toContain(canonicalRequest.text);
    });
  }
});

describe("canonicalRequestOf", () => {
  it("is the method upper-cased, path, query, headers, signed headers and payload hash, a line each", () => {
    expect(
      canonicalRequestOf({
        method: "get",
        path: "/a",
        query: "b=c",
        canonicalHeaders: "host:example.com\nx-amz-date:20150830T123600Z\n",
        signedHeaders: ["host", "x-amz-date"],
        payloadHash: EMPTY_HASH,
      }),
    ).toBe(`GET\n/a\nb=c\nhost:example.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY_HASH}`);
  });
});

describe("canonicalRequestsOf", () => {
  const parts = {
    method: "GET",
    canonicalHeaders: "host:example.com\n",
    signedHeaders: ["host"],
    payloadHash: EMPTY_HASH,
  };
  const pathAndQueryOf = (request: string) => request.split("\n").slice(1, 3).join("?");

  it("makes the path as sent with the query sorted first, then every other spelling once", () => {
    const spellings = [...canonicalRequestsOf({ ...parts, path: "/x/../a%2Fb", query: "b=2&a=1" })];
    expect(spellings.map(pathAndQueryOf)).toEqual([
      "/x/../a%2Fb?a=1&b=2",
      "/x/../a%2Fb?b=2&a=1",
      "/x/../a%252Fb?a=1&b=2",
      "/x/../a%252Fb?b=2&a=1",
      "/a%2Fb?a=1&b=2",
      "/a%2Fb?b=2&a=1",
      "/a%252Fb?a=1&b=2",
      "/a%252Fb?b=2&a=1",
    ]);
  });

  it("makes the other spellings only when asked for the next (a lone surrogate cannot be encoded again)", () => {
    const spellings = canonicalRequestsOf({ ...parts, path: "/a\uD800", query: "" });
    expect(pathAndQueryOf(spellings.next().value as string)).toBe("/a\uD800?");
    expect(() => spellings.next()).toThrow(URIError);
  });

  it("makes one spelling of a path and query that have no other", () => {
    expect(
      [...canonicalRequestsOf({ ...parts, path: "/transactions", query: "" })].map(pathAndQueryOf),
    ).toEqual(["/transactions?"]);
  });
});

describe("canonicalPathsOf", () => {
  it("tries the path as sent and normalised, each as it is and encoded once more", () => {
    expect(canonicalPathsOf("/accounts")).toEqual(["/accounts"]);
    expect(canonicalPathsOf("//a/./b/../c/")).toEqual(["//a/./b/../c/", "/a/c/"]);
    expect(canonicalPathsOf("/a%20b")).toEqual(["/a%20b", "/a%2520b"]);
    expect(canonicalPathsOf("/x/../a%2Fb")).toEqual(["/x/../a%2Fb", "/x/../a%252Fb", "/a%2Fb", "/a%252Fb"]);
  });

  it("encodes all but RFC 3986's unreserved characters", () => {
    expect(canonicalPathsOf("/-_.~!'()*ሴ")).toEqual(["/-_.~!'()*ሴ", "/-_.~%21%27%28%29%2A%E1%88%B4"]);
  });
});

describe("canonicalQueriesOf", () => {
  it("tries the query sorted and encoded, then as sent (Debian's curl 7.88 signs it unsorted)", () => {
    expect(canonicalQueriesOf("")).toEqual([""]);
    expect(canonicalQueriesOf("a=1&b=2")).toEqual(["a=1&b=2"]);
    expect(canonicalQueriesOf("limit=5&offset=0&after=x")).toEqual([
      "after=x&limit=5&offset=0",
      "limit=5&offset=0&after=x",
    ]);
  });

  it("sorts by encoded key, then value; a key alone gets an empty value; empty pairs go", () => {
    expect(canonicalQueriesOf("b=2&a=2&a=1&c&&B=0")[0]).toBe("B=0&a=1&a=2&b=2&c=");
  });

  it("decodes and encodes again each key and value, then sorts (a bad escape is text)", () => {
    expect(canonicalQueriesOf("q=a%2Bb&p=%7e%41&r=%zz&ሴ=!")[0]).toBe("%E1%88%B4=%21&p=~A&q=a%2Bb&r=%25zz");
  });

  it("reads a '+' as the space URLSearchParams and the services read (aws4fetch signs it so), never as a plus", () => {
    // Sorted with `+` as `%2B`, a `%2B` signed (a plus) would verify sent as `+` (a space).
    expect(canonicalQueriesOf("q=a+b&+x=%2B")).toEqual(["%20x=%2B&q=a%20b", "q=a+b&+x=%2B"]);
    expect(canonicalQueriesOf("q=a%20b")).toEqual(["q=a%20b"]);
  });
});

describe("canonicalHeadersOf", () => {
  it("joins a header's lines with ',' in their order, each trimmed, inner whitespace one space", () => {
    expect(
      canonicalHeadersOf({ host: ["example.com"], "x-trace": ["  value4 ", "value1\t\t a", "value3"] }, [
        "host",
        "x-trace",
      ]),
    ).toBe("host:example.com\nx-trace:value4,value1 a,value3\n");
  });

  it("keeps the signer's order of names", () => {
    expect(canonicalHeadersOf({ a: ["1"], b: ["2"] }, ["b", "a"])).toBe("b:2\na:1\n");
  });

  it("refuses a signed header that was not sent: 403 SignatureDoesNotMatch", () => {
    for (const headers of [{ host: ["example.com"] }, { host: ["example.com"], "x-trace": [] }]) {
      expect(refusalOf(() => canonicalHeadersOf(headers, ["host", "x-trace"]))).toEqual({
        status: 403,
        errorName: "SignatureDoesNotMatch",
        message: "signed header x-trace is missing",
      });
    }
  });
});

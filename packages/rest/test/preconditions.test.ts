import { describe, expect, it } from "vitest";
import { versionCheckOf, type PreconditionHeaders } from "../src/preconditions.ts";

const VERSION = "2026-01-31T12:00:00.123Z";
const headers = (sent: Partial<PreconditionHeaders>): PreconditionHeaders => ({
  ifMatch: null,
  ifNoneMatch: null,
  ifUnmodifiedSince: null,
  ...sent,
});
const holds = (sent: Partial<PreconditionHeaders>, current: string | null) =>
  versionCheckOf(headers(sent))!(current);

describe("versionCheckOf (RFC 9110, 13.2.2)", () => {
  it("is null without conditional headers: the write is unconditional", () => {
    expect(versionCheckOf(headers({}))).toBeNull();
  });

  it("If-Match: holds for a listed strong ETag of the current version, or * for any, never for a weak one", () => {
    expect(holds({ ifMatch: `"${VERSION}"` }, VERSION)).toBe(true);
    expect(holds({ ifMatch: `"other", "a,b" ,, "${VERSION}"` }, VERSION)).toBe(true);
    expect(holds({ ifMatch: `"2026-01-31T12:00:00.122Z"` }, VERSION)).toBe(false);
    expect(holds({ ifMatch: `W/"${VERSION}"` }, VERSION)).toBe(false);
    expect(holds({ ifMatch: `"${VERSION}"` }, null)).toBe(false);
    expect(holds({ ifMatch: "*" }, VERSION)).toBe(true);
    expect(holds({ ifMatch: " * " }, null)).toBe(false);
  });

  it("If-None-Match: * holds only where there is none; a list fails on a weak match of the current version", () => {
    expect(holds({ ifNoneMatch: "*" }, null)).toBe(true);
    expect(holds({ ifNoneMatch: "*" }, VERSION)).toBe(false);
    expect(holds({ ifNoneMatch: `W/"${VERSION}"` }, VERSION)).toBe(false);
    expect(holds({ ifNoneMatch: `"other"` }, VERSION)).toBe(true);
  });

  it("If-Unmodified-Since: to the second, ignored beside If-Match, for an unreadable date, or for no version", () => {
    expect(holds({ ifUnmodifiedSince: "Sat, 31 Jan 2026 12:00:00 GMT" }, VERSION)).toBe(true);
    expect(holds({ ifUnmodifiedSince: "Sat, 31 Jan 2026 11:59:59 GMT" }, VERSION)).toBe(false);
    expect(holds({ ifUnmodifiedSince: "yesterday" }, VERSION)).toBe(true);
    expect(holds({ ifUnmodifiedSince: "Sat, 31 Jan 2026 11:59:59 GMT" }, null)).toBe(true);
    const both = { ifMatch: `"${VERSION}"`, ifUnmodifiedSince: "Thu, 01 Jan 1970 00:00:00 GMT" };
    expect(holds(both, VERSION)).toBe(true);
  });

  it("refuses a header that is not * or a list of quoted entity-tags with a 400", () => {
    for (const value of ["", " ", ",", VERSION, `"unterminated`, `"a""b"`, `"a" "b"`, `W/ "a"`, `"a\\"b"`]) {
      expect(() => versionCheckOf(headers({ ifMatch: value })), value).toThrow(
        expect.objectContaining({ status: 400, message: expect.stringContaining("If-Match must be *") }),
      );
    }
    expect(() => versionCheckOf(headers({ ifNoneMatch: "nope" }))).toThrow(/If-None-Match must be \*/);
  });
});

describe("If-Unmodified-Since's dates", () => {
  const at = (date: string) => holds({ ifUnmodifiedSince: date }, VERSION);

  it("reads the three forms of an HTTP date", () => {
    expect(at("Sat, 31 Jan 2026 11:59:59 GMT")).toBe(false);
    expect(at("Saturday, 31-Jan-26 11:59:59 GMT")).toBe(false);
    expect(at("Sat Jan 31 11:59:59 2026")).toBe(false);
    expect(at("Sat, 31 Jan 2026 12:00:00 GMT")).toBe(true);
    expect(at("Saturday, 31-Jan-26 12:00:00 GMT")).toBe(true);
    expect(at("Sat Jan 31 12:00:00 2026")).toBe(true);
    expect(at("Sun Feb  1 00:00:00 2026")).toBe(true);
  });

  it("ignores what is not one, which Date.parse would have guessed at", () => {
    for (const date of [
      "1",
      "2026-01-31",
      "2026-01-31T11:00:00Z",
      "Sat, 31 Jan 2026 11:59:59",
      "Sat, 31 Feb 2026 11:00:00 GMT",
      // Rolled over, these would read as a time before the version's, and refuse the write.
      "Sat, 31 Jan 2026 10:60:00 GMT",
      "Fri, 30 Jan 2026 24:00:00 GMT",
      "Sat, 31 Jan 2026 11:59:59.500 GMT",
    ]) {
      expect(at(date), date).toBe(true);
    }
  });
});

import { DomainError } from "./domain-error.ts";

/**
 * Conditional writes (RFC 9110, section 13): a client that read a resource
 * sends its ETag back in `If-Match`, and the write happens only if nobody
 * changed the resource since (else 412). A resource's version is its
 * `updated_at` (milliseconds, never the same twice for one resource: the
 * stores move it on by at least 1 ms a write), and its ETag that value in
 * quotes, so a client can build it from any body it read, a list's included.
 */

/** The conditional headers of a request, as sent (null when absent). */
export interface PreconditionHeaders {
  ifMatch: string | null;
  ifNoneMatch: string | null;
  ifUnmodifiedSince: string | null;
}

/** Whether a write's preconditions hold for the resource's current version (its updated_at), or for none. */
export type VersionCheck = (currentVersion: string | null) => boolean;

/**
 * The 412 of a conditional write (If-Match...) whose resource (`what`) is at
 * another version than the request's preconditions ask for, or is not there.
 */
export const versionConflict = (what: string, current: string | null) =>
  new DomainError(
    412,
    current === null
      ? `there is no ${what} at the version the request names (If-Match); create it first`
      : `the ${what} is at version "${current}" (its updated_at), not the one the request's preconditions ask for: read it again before writing over it`,
  );

/** The strong ETag of a resource whose version (updated_at) is `version`. */
export const entityTagOf = (version: string): string => `"${version}"`;

export const PRECONDITION_HEADERS = ["If-Match", "If-None-Match", "If-Unmodified-Since"] as const;

/** The headers read from a request's own (anything with `get`, as a fetch Headers or a RestRequest). */
export function preconditionHeadersOf(headers: { get(name: string): string | null }): PreconditionHeaders {
  return {
    ifMatch: headers.get("if-match"),
    ifNoneMatch: headers.get("if-none-match"),
    ifUnmodifiedSince: headers.get("if-unmodified-since"),
  };
}

export const hasPreconditions = (headers: PreconditionHeaders): boolean =>
  headers.ifMatch !== null || headers.ifNoneMatch !== null || headers.ifUnmodifiedSince !== null;

interface EntityTag {
  weak: boolean;
  opaque: string;
}
type TagList = "*" | EntityTag[];

/**
 * What the headers ask of the current version, in RFC 9110's order (13.2.2):
 * If-Match, else If-Unmodified-Since; then If-None-Match. Null when none was
 * sent (the write is unconditional). A header that is not an entity-tag list
 * is a 400: ignored, it would let through the write it was sent to stop.
 */
export function versionCheckOf(headers: PreconditionHeaders): VersionCheck | null {
  if (!hasPreconditions(headers)) return null;
  const ifMatch = headers.ifMatch === null ? null : tagListOf("If-Match", headers.ifMatch);
  const ifNoneMatch = headers.ifNoneMatch === null ? null : tagListOf("If-None-Match", headers.ifNoneMatch);
  // A value that is not an HTTP date is ignored (13.1.4), and so is the header beside If-Match.
  const unmodifiedSince =
    ifMatch === null && headers.ifUnmodifiedSince !== null ? httpDateOf(headers.ifUnmodifiedSince) : NaN;

  return (current) => {
    const tag = current === null ? null : entityTagOf(current);
    if (ifMatch !== null && !(ifMatch === "*" ? tag !== null : ifMatch.some((t) => strongMatch(t, tag))))
      return false;
    // HTTP dates have whole seconds: the version's own second counts as not after the date.
    if (current !== null && !Number.isNaN(unmodifiedSince) && Date.parse(current) >= unmodifiedSince + 1000)
      return false;
    if (
      ifNoneMatch !== null &&
      (ifNoneMatch === "*" ? tag !== null : ifNoneMatch.some((t) => weakMatch(t, tag)))
    )
      return false;
    return true;
  };
}

const strongMatch = (listed: EntityTag, current: string | null) =>
  !listed.weak && current !== null && `"${listed.opaque}"` === current;
const weakMatch = (listed: EntityTag, current: string | null) =>
  current !== null && `"${listed.opaque}"` === current;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = `(${MONTHS.join("|")})`;
const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const TIME = String.raw`(\d\d):(\d\d):(\d\d)`;
/** RFC 9110's three forms of an HTTP-date (5.6.7): IMF-fixdate, RFC 850's, asctime's. */
const IMF_FIXDATE = new RegExp(String.raw`^${DAY}, (\d\d) ${MONTH} (\d{4}) ${TIME} GMT$`);
const RFC_850_DATE = new RegExp(String.raw`^${DAY}[a-z]{3,6}, (\d\d)-${MONTH}-(\d\d) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(String.raw`^${DAY} ${MONTH} ([ \d]\d) ${TIME} (\d{4})$`);

/** An HTTP-date as milliseconds since the epoch; NaN for anything else (a date `Date.parse` would guess at). */
function httpDateOf(value: string): number {
  let parts: [day: string, month: string, year: number, ...time: string[]] | null = null;
  let match = IMF_FIXDATE.exec(value);
  if (match) parts = [match[1]!, match[2]!, Number(match[3]), match[4]!, match[5]!, match[6]!];
  else if ((match = RFC_850_DATE.exec(value))) {
    // A two-digit year more than 50 years ahead is the last such year past (RFC 9110, 5.6.7).
    const year = 2000 + Number(match[3]);
    const thisYear = new Date().getUTCFullYear();
    parts = [match[1]!, match[2]!, year > thisYear + 50 ? year - 100 : year, match[4]!, match[5]!, match[6]!];
  } else if ((match = ASCTIME_DATE.exec(value))) {
    parts = [match[2]!.trim(), match[1]!, Number(match[6]), match[3]!, match[4]!, match[5]!];
  }
  if (!parts) return NaN;
  const [day, month, year, hours, minutes, seconds] = parts;
  const time = Date.UTC(
    year,
    MONTHS.indexOf(month),
    Number(day),
    Number(hours),
    Number(minutes),
    Number(seconds),
  );
  // Date.UTC rolls 31 Feb over into March, and 24:00 or 10:60 into the next hour: such a date is no date.
  const real =
    new Date(time).getUTCDate() === Number(day) &&
    Number(hours) < 24 &&
    Number(minutes) < 60 &&
    Number(seconds) < 60;
  return real ? time : NaN;
}

const TAG = String.raw`(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"`;
/** A list of entity-tags, empty elements allowed (RFC 9110, 5.6.1); a tag may hold commas, never quotes. */
const TAG_ELEMENT = String.raw`\s*(?:${TAG}\s*)?`; // no two runs of spaces side by side: linear to match
const TAG_LIST = new RegExp(`^${TAG_ELEMENT}(?:,${TAG_ELEMENT})*$`);

/** `*` or a comma-separated list of entity-tags (`"x"`, `W/"x"`). */
function tagListOf(name: string, value: string): TagList {
  if (value.trim() === "*") return "*";
  const tags = TAG_LIST.test(value)
    ? Array.from(value.matchAll(new RegExp(TAG, "g")), ([, weak, opaque]) => ({
        weak: weak !== undefined,
        opaque: opaque!,
      }))
    : [];
  if (tags.length === 0) {
    throw new DomainError(
      400,
      `${name} must be * or a list of entity-tags in quotes, as an ETag header gives them ("2026-01-31T12:00:00.000Z")`,
    );
  }
  return tags;
}

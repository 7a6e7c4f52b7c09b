import type { ReceivedHeaders } from "./received-request.ts";
import { normalizeSigV4Path } from "./request-target.ts";
import { SigV4Error } from "./sigv4-error.ts";

export interface CanonicalRequestParts {
  method: string;
  path: string;
  query: string;
  /** canonicalHeadersOf the signed headers. */
  canonicalHeaders: string;
  signedHeaders: readonly string[];
  payloadHash: string;
}

export function canonicalRequestOf(parts: CanonicalRequestParts): string {
  const { method, path, query, canonicalHeaders, signedHeaders, payloadHash } = parts;
  return `${method.toUpperCase()}\n${path}\n${query}\n${canonicalHeaders}\n${signedHeaders.join(";")}\n${payloadHash}`;
}

/**
 * The canonical request of each spelling of the path and query that real
 * clients sign, `sent` holding them as sent: the path as sent or normalised
 * (no `.`/`..` segments or repeated slashes, as AWS's signers do for every
 * service but S3, e.g. `@smithy/signature-v4`), encoded once more or not, and
 * the query sorted and encoded (a `+` as the space it means, as aws4fetch
 * signs it) or as sent (Debian's curl 7.88 signs it verbatim). Each binds
 * every byte of the request target and what the services read it as; a server routes
 * by the normalised path (`normalizeSigV4Path`), so a path signed either way
 * means one resource. Made one at a time, the path as sent and the query
 * sorted first (what nearly every client signs), the others only when it did
 * not match: the first that matches ends the search.
 */
export function* canonicalRequestsOf(sent: CanonicalRequestParts): Generator<string> {
  const queries = canonicalQueriesOf(sent.query);
  yield canonicalRequestOf({ ...sent, query: queries[0]! });
  for (const path of canonicalPathsOf(sent.path)) {
    for (const query of queries) {
      if (path !== sent.path || query !== queries[0]) yield canonicalRequestOf({ ...sent, path, query });
    }
  }
}

export function canonicalPathsOf(sentPath: string): string[] {
  const normalizedPath = normalizeSigV4Path(sentPath);
  return unique([sentPath, encodePath(sentPath), normalizedPath, encodePath(normalizedPath)]);
}

export function canonicalQueriesOf(sentQuery: string): string[] {
  // A `+` is a space to the services, so sorted it is signed as one (`%20`, as aws4fetch does).
  // Signed as `%2B`, a real plus's spelling, a plus signed could be sent as a space, unnoticed.
  const decode = sentQuery.includes("+") ? formDecode : safeDecode;
  return unique([sortedQuery(sentQuery, decode), sentQuery]);
}

/**
 * A line `name:value` per signed header, in the signer's order: the
 * header's lines each trimmed, inner runs of whitespace made one space, and
 * joined with ",".
 */
export function canonicalHeadersOf(headers: ReceivedHeaders, signedHeaders: readonly string[]): string {
  return signedHeaders
    .map((name) => {
      const lines = headers[name];
      if (!lines?.length) throw new SigV4Error("SignatureDoesNotMatch", `signed header ${name} is missing`);
      return `${name}:${lines.length === 1 ? canonicalLine(lines[0]!) : lines.map(canonicalLine).join(",")}\n`;
    })
    .join("");
}

const canonicalLine = (line: string) => line.trim().replace(/\s+/g, " ");

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters. */
function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The path with each segment encoded once more, as SigV4 does for every service but S3. */
function encodePath(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeRfc3986(segment))
    .join("/");
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A query value as HTML forms and URLSearchParams read it, `+` a space: what
 * the services act on, and what a signer that parses the URL first signs
 * (aws4fetch: `+` as `%20`).
 */
function formDecode(value: string): string {
  return safeDecode(value.replaceAll("+", " "));
}

function sortedQuery(sentQuery: string, decode: (value: string) => string): string {
  if (sentQuery === "") return "";
  return sentQuery
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const key = equals < 0 ? pair : pair.slice(0, equals);
      const value = equals < 0 ? "" : pair.slice(equals + 1);
      return [encodeRfc3986(decode(key)), encodeRfc3986(decode(value))] as const;
    })
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

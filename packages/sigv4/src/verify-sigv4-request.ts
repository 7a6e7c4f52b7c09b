import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Credential, CredentialStore } from "./credentials.ts";
import { SigV4Error } from "./sigv4-error.ts";
import { createSigningKeyCache } from "./signing-key-cache.ts";

/** A request as the server received it. */
export interface ReceivedRequest {
  method: string;
  /** The request target exactly as sent: path and query, still percent-encoded (Node's `req.url`). */
  target: string;
  /**
   * Every line of each header, names in lower case (Node's `req.headersDistinct`):
   * SigV4 joins the values of repeated lines with "," in their order, where
   * `req.headers` would join them with ", " or keep only the first.
   */
  headers: Record<string, string[] | undefined>;
  body: Buffer;
}

export interface VerifyOptions {
  credentials: CredentialStore;
  region: string;
  service: string;
  now?: Date;
}

const ALGORITHM = "AWS4-HMAC-SHA256";
const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** Derived signing keys, kept between requests (four HMACs each otherwise). */
const signingKeys = createSigningKeyCache();

/**
 * Verifies an AWS Signature Version 4 `Authorization` header the way AWS
 * does (compare MinIO's cmd/signature-v4.go): one Authorization line with
 * each of its three fields once, the credential scope names this region and
 * service, `host` and `x-amz-date` are signed, the date is within 5 minutes,
 * the real body is hashed (and must match `x-amz-content-sha256` when sent),
 * and the signature is compared in constant time. Returns the
 * credential that signed; throws a SigV4Error otherwise.
 *
 * The spellings of the canonical path and query that real clients sign are
 * accepted: the path as sent or normalised (no `.`/`..` segments or repeated
 * slashes, as AWS's signers do for every service but S3, e.g.
 * `@smithy/signature-v4`), encoded once more or not, and the query sorted and
 * encoded or as sent (Debian's curl 7.88 signs it verbatim). Each binds every
 * byte of the request target; a server routes by the normalised path
 * (`normalizeSigV4Path`), so a path signed either way means one resource.
 */
export function verifySigV4Request(request: ReceivedRequest, options: VerifyOptions): Credential {
  const [rawPath = "/", rawQuery = ""] = splitTarget(request.target);
  if (/(^|&)x-amz-(signature|credential)=/i.test(rawQuery)) {
    throw new SigV4Error(
      "MissingAuthenticationToken",
      "presigned URLs are not accepted; sign the Authorization header",
    );
  }
  const authorization = request.headers.authorization ?? [];
  if (!authorization[0]) throw new SigV4Error("MissingAuthenticationToken", "missing Authorization header");
  // Of two lines, which one counts would be a guess, and a proxy in front may guess the other.
  if (authorization.length > 1) {
    throw new SigV4Error(
      "AuthorizationHeaderMalformed",
      `malformed Authorization header: send one Authorization header, not ${authorization.length}`,
    );
  }
  const parsed = parseAuthorization(authorization[0]);

  const amzDate = header(request, "x-amz-date");
  const signedAt = amzDate ? parseAmzDate(amzDate) : null;
  if (!amzDate || !signedAt) {
    throw new SigV4Error("AuthorizationHeaderMalformed", "x-amz-date must be sent as YYYYMMDDTHHMMSSZ");
  }

  const credential = options.credentials.get(parsed.accessKeyId);
  if (!credential) throw new SigV4Error("InvalidAccessKeyId", "the access key id is not known");

  const [scopeDate, scopeRegion, scopeService, terminator] = parsed.scope;
  if (scopeDate !== amzDate.slice(0, 8) || terminator !== "aws4_request") {
    throw new SigV4Error("SignatureDoesNotMatch", "the credential scope does not match x-amz-date");
  }
  if (scopeRegion !== options.region || scopeService !== options.service) {
    throw new SigV4Error(
      "SignatureDoesNotMatch",
      `the credential scope must name region ${options.region} and service ${options.service}`,
    );
  }
  for (const required of ["host", "x-amz-date"]) {
    if (!parsed.signedHeaders.includes(required)) {
      throw new SigV4Error("SignatureDoesNotMatch", `${required} must be a signed header`);
    }
  }

  const now = options.now ?? new Date();
  if (Math.abs(now.getTime() - signedAt.getTime()) > MAX_CLOCK_SKEW_MS) {
    throw new SigV4Error(
      "RequestTimeTooSkewed",
      "the request time differs from the server's by more than 5 minutes",
    );
  }

  const payloadHash = sha256Hex(request.body);
  const declaredHash = header(request, "x-amz-content-sha256");
  if (declaredHash !== undefined && declaredHash.toLowerCase() !== payloadHash) {
    throw new SigV4Error(
      "SignatureDoesNotMatch",
      /^[0-9a-f]{64}$/i.test(declaredHash)
        ? "x-amz-content-sha256 does not match the body"
        : "x-amz-content-sha256 must be the body's SHA-256 (UNSIGNED-PAYLOAD is not accepted)",
    );
  }

  const canonicalHeaders = parsed.signedHeaders.map((name) => {
    const lines = request.headers[name];
    if (!lines?.length) throw new SigV4Error("SignatureDoesNotMatch", `signed header ${name} is missing`);
    return `${name}:${lines.map((line) => line.trim().replace(/\s+/g, " ")).join(",")}\n`;
  });
  const scope = parsed.scope.join("/");
  const signingKey = signingKeys.signingKey(credential.secretAccessKey, scopeDate, scopeRegion, scopeService);
  const expected = Buffer.from(parsed.signature, "hex");

  const normalizedPath = normalizeSigV4Path(rawPath);
  for (const path of unique([rawPath, encodePath(rawPath), normalizedPath, encodePath(normalizedPath)])) {
    for (const query of unique([canonicalQuery(rawQuery), rawQuery])) {
      const canonicalRequest = [
        request.method.toUpperCase(),
        path,
        query,
        canonicalHeaders.join(""),
        parsed.signedHeaders.join(";"),
        payloadHash,
      ].join("\n");
      const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
      const signature = createHmac("sha256", signingKey).update(stringToSign).digest();
      if (timingSafeEqual(signature, expected)) return credential;
    }
  }
  throw new SigV4Error("SignatureDoesNotMatch", "the signature does not match the request");
}

interface ParsedAuthorization {
  accessKeyId: string;
  scope: [string, string, string, string];
  signedHeaders: string[];
  signature: string;
}

/** The fields of `AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...`, each exactly once. */
const AUTHORIZATION_FIELDS = new Set(["Credential", "SignedHeaders", "Signature"]);

function parseAuthorization(value: string): ParsedAuthorization {
  const malformed = (why: string) =>
    new SigV4Error("AuthorizationHeaderMalformed", `malformed Authorization header: ${why}`);
  const space = value.indexOf(" ");
  if (space < 0 || value.slice(0, space) !== ALGORITHM) throw malformed(`the algorithm must be ${ALGORITHM}`);
  const fields = new Map<string, string>();
  for (const part of value.slice(space + 1).split(",")) {
    const [key, ...rest] = part.trim().split("=");
    if (!key || rest.length === 0) throw malformed(`cannot read "${part.trim()}"`);
    // Signers send each of the three once; a field more is one that another reader may take otherwise.
    if (!AUTHORIZATION_FIELDS.has(key)) throw malformed(`unknown field "${key}"`);
    if (fields.has(key)) throw malformed(`${key} is sent twice`);
    fields.set(key, rest.join("="));
  }
  const credential = fields.get("Credential")?.split("/");
  const signedHeaders = fields.get("SignedHeaders")?.split(";");
  const signature = fields.get("Signature");
  if (!credential || credential.length !== 5 || credential.some((p) => p === "")) {
    throw malformed("Credential must be KEY/DATE/REGION/SERVICE/aws4_request");
  }
  if (!signedHeaders || signedHeaders.some((h) => !/^[a-z0-9-]+$/.test(h))) {
    throw malformed("SignedHeaders must be lower-case header names separated by ;");
  }
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) throw malformed("Signature must be 64 hex digits");
  const [accessKeyId, ...scope] = credential as [string, string, string, string, string];
  return { accessKeyId, scope: scope as ParsedAuthorization["scope"], signedHeaders, signature };
}

function header(request: ReceivedRequest, name: string): string | undefined {
  return request.headers[name]?.join(",");
}

/**
 * A request path as AWS's signers normalise it for every service but S3:
 * no empty or `.` segments, `..` removing the one before, the leading and
 * trailing slash kept (`//a/./b/../c/` is `/a/c/`).
 */
export function normalizeSigV4Path(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}${segments.length > 0 && path.endsWith("/") ? "/" : ""}`;
}

/** A request target's path and query: the query is all after the first "?", more "?" included. */
export function splitTarget(target: string): [string, string] {
  const question = target.indexOf("?");
  return question < 0 ? [target, ""] : [target.slice(0, question), target.slice(question + 1)];
}

function parseAmzDate(value: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h, mi, s));
  return Number.isNaN(date.getTime()) || date.getUTCDate() !== d ? null : date;
}

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

function canonicalQuery(rawQuery: string): string {
  if (rawQuery === "") return "";
  return rawQuery
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const key = equals < 0 ? pair : pair.slice(0, equals);
      const value = equals < 0 ? "" : pair.slice(equals + 1);
      return [encodeRfc3986(safeDecode(key)), encodeRfc3986(safeDecode(value))] as const;
    })
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
}

function sha256Hex(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

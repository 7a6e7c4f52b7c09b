/**
 * The cases of AWS's SigV4 test suite (aws-signing-test-suite/v4 of
 * awslabs/aws-c-auth, Apache-2.0: LICENSE and NOTICE in
 * aws-sigv4-test-suite/), each with the files the suite derives from its
 * request: the canonical request, the string to sign, the signature and the
 * signed request, which the unit test of each step reproduces.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { CredentialStore } from "../src/credentials.ts";
import type { ReceivedRequest } from "../src/received-request.ts";

const SUITE = path.join(import.meta.dirname, "aws-sigv4-test-suite");

export interface SuiteContext {
  credentials: { access_key_id: string; secret_access_key: string };
  /** False for S3's signers, which sign the path as sent. */
  normalize: boolean;
  region: string;
  service: string;
  timestamp: string;
}

/** header-canonical-request.txt, line by line. */
export interface SuiteCanonicalRequest {
  text: string;
  method: string;
  path: string;
  query: string;
  /** The `name:value` lines, each ending in "\n". */
  canonicalHeaders: string;
  signedHeaders: string[];
  payloadHash: string;
}

export interface SuiteCase {
  name: string;
  context: SuiteContext;
  /** header-signed-request.txt as a server receives it. */
  signedRequest: ReceivedRequest;
  /** query-signed-request.txt: the same request presigned. */
  presignedRequest: ReceivedRequest;
  canonicalRequest: SuiteCanonicalRequest;
  /** header-string-to-sign.txt. */
  stringToSign: string;
  /** header-signature.txt. */
  signature: string;
}

/** A request file as its bytes would reach a server: request line, header lines (folded ones joined), body. */
export function parseSuiteRequest(text: string): ReceivedRequest {
  const [head = "", ...rest] = text.split("\n\n");
  const [requestLine = "", ...lines] = head.split("\n");
  // The target may hold a space (get-space): it runs from the first space to " HTTP/1.1".
  const method = requestLine.slice(0, requestLine.indexOf(" "));
  const target = requestLine.slice(method.length + 1, requestLine.lastIndexOf(" "));
  const headers: Record<string, string[]> = {};
  let last: string[] | undefined;
  for (const line of lines) {
    if (/^\s/.test(line) && last) {
      last[last.length - 1] += `\n${line}`;
      continue;
    }
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).toLowerCase();
    last = headers[name] ??= [];
    last.push(line.slice(colon + 1));
  }
  return { method, target, headers, body: Buffer.from(rest.join("\n\n")) };
}

function parseCanonicalRequest(text: string): SuiteCanonicalRequest {
  const [method = "", path = "", query = "", ...rest] = text.split("\n");
  const blank = rest.indexOf("");
  const [signedHeaders = "", payloadHash = ""] = rest.slice(blank + 1);
  return {
    text,
    method,
    path,
    query,
    canonicalHeaders: rest
      .slice(0, blank)
      .map((line) => `${line}\n`)
      .join(""),
    signedHeaders: signedHeaders.split(";"),
    payloadHash,
  };
}

export const suiteCases: SuiteCase[] = readdirSync(SUITE, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map(({ name }) => {
    const read = (file: string) => readFileSync(path.join(SUITE, name, file), "utf8");
    return {
      name,
      context: JSON.parse(read("context.json")) as SuiteContext,
      signedRequest: parseSuiteRequest(read("header-signed-request.txt")),
      presignedRequest: parseSuiteRequest(read("query-signed-request.txt")),
      canonicalRequest: parseCanonicalRequest(read("header-canonical-request.txt")),
      stringToSign: read("header-string-to-sign.txt"),
      signature: read("header-signature.txt"),
    };
  });

/** Every case of the suite: 38, of which 7 sign the path as S3 does (`normalize: false`). */
export const SUITE_CASE_COUNT = 38;

export function suiteCredentials(context: SuiteContext): CredentialStore {
  const { access_key_id: accessKeyId, secret_access_key: secretAccessKey } = context.credentials;
  return new Map([[accessKeyId, { accessKeyId, secretAccessKey, principal: "suite", actions: [] }]]);
}

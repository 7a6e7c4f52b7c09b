import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import { AwsClient } from "aws4fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECURITY_HEADERS } from "../apps/web/src/server/security-headers.ts";
import { THEME_NAMES } from "@app/resume/client";
import { activeContent } from "./active-content.ts";
import { resumeCarrying, THEME_PAYLOADS } from "./hostile-text.ts";
import { FULL_KEY, REGION, startLedgerServer, type LedgerServer } from "./ledger-server.ts";
import { sendRaw, type RawAnswer, type RawRequest } from "./raw-http.ts";
import { newUser } from "./tokens.ts";
import { startWebServer, type WebServer } from "./web-server.ts";

/**
 * Walks both OpenAPI documents and sends every route bodies, parameters and
 * headers that are wrong in every way we could think of. No answer may be a
 * 5xx, every 4xx must carry exactly the documented error body, and every
 * status must be one the operation documents.
 */
let web: WebServer;
let ledger: LedgerServer;
let authorization: string;

beforeAll(async () => {
  [web, ledger] = await Promise.all([startWebServer(), startLedgerServer()]);
  authorization = (await newUser()).authorization;
});

afterAll(async () => {
  await Promise.all([web?.stop(), ledger?.stop()]);
});

interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: string }[];
  bodyProperties: string[];
  /** The statuses the document lists for this operation. */
  documented: string[];
}

type OpenApiDocument = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string }[];
        requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
        responses: Record<string, unknown>;
      }
    >
  >;
};

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      parameters: op.parameters ?? [],
      bodyProperties: Object.keys(op.requestBody?.content["application/json"]?.schema.properties ?? {}),
      documented: Object.keys(op.responses),
    })),
  );
}

const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 64,
  "",
  " ",
  "x".repeat(10_000),
  "\u0000",
  "nul\u0000inside",
  "🙂 émoji ‮rtl‬ 中文",
  "\ud800",
  "<script>alert(1)</script>",
  "'; DROP TABLE x; --",
  "2024-02-30",
  "not-a-uuid",
  [],
  ["a", 1, null],
  {},
  { nested: { deeper: [1, 2, { x: "y" }] } },
];

const HOSTILE_PATH_SEGMENTS = [
  "x",
  "%00",
  "..%2F..%2Fetc",
  "%E2%98%83",
  "a".repeat(3000),
  "-1",
  "1e309",
  "00000000-0000-0000-0000-000000000000",
];
const HOSTILE_QUERY_VALUES = [
  "",
  "abc",
  "-1",
  "1e400",
  "99999999999999999999",
  "%00",
  "[]",
  "a".repeat(3000),
  "2024-13-45",
  "true",
];

/** Header parameters (Idempotency-Key): values fetch lets through that no key may be. */
const HOSTILE_HEADER_VALUES = [
  "",
  " ",
  "x".repeat(256),
  "two words",
  "caf\u00e9",
  "a, b",
  "\u00ff".repeat(3),
];

const RAW_BODIES = [
  "null",
  "[]",
  "1",
  '"string"',
  "",
  "{",
  '{"a":1,"a":2}',
  `${"[".repeat(5000)}${"]".repeat(5000)}`,
  `{"x":${"[".repeat(3000)}${"]".repeat(3000)}}`,
  "\xff\xfe",
];

interface HostileRequest {
  path: string;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

function requestsFor(op: Operation): HostileRequest[] {
  const fill = (segment: string) => op.path.replace(/\{[^}]+\}/g, segment);
  const validId = "6b0c3c4e-4d5e-4f60-8a1b-2c3d4e5f6a7b";
  const requests: HostileRequest[] = [];
  for (const segment of HOSTILE_PATH_SEGMENTS)
    if (op.path.includes("{")) requests.push({ path: fill(segment) });
  for (const parameter of op.parameters.filter((p) => p.in === "query")) {
    for (const value of HOSTILE_QUERY_VALUES)
      requests.push({ path: `${fill(validId)}?${parameter.name}=${encodeURIComponent(value)}` });
  }
  for (const parameter of op.parameters.filter((p) => p.in === "header")) {
    for (const value of HOSTILE_HEADER_VALUES)
      requests.push({ path: fill(validId), body: "{}", headers: { [parameter.name]: value } });
  }
  if (op.method === "POST" || op.method === "PUT") {
    for (const raw of RAW_BODIES) requests.push({ path: fill(validId), body: raw });
    for (const property of op.bodyProperties) {
      for (const value of HOSTILE_VALUES)
        requests.push({ path: fill(validId), body: JSON.stringify({ [property]: value }) });
    }
    requests.push({
      path: fill(validId),
      body: JSON.stringify(Object.fromEntries(op.bodyProperties.map((p) => [p, "\u0000"]))),
    });
    requests.push({ path: fill(validId), body: '{"x":1}', contentType: "text/plain" });
    requests.push({ path: fill(validId), body: '{"x":1}', contentType: "application/json; charset=latin1" });
  }
  if (requests.length === 0) requests.push({ path: fill(validId) });
  return requests;
}

/** What every answer of the ledger carries: it answers JSON to programs, never a page (docs/ledger-api.md, "Headers"). */
const LEDGER_SECURITY_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

interface HeaderReader {
  get(name: string): string | null | undefined;
}

function expectHeaders(where: string, headers: HeaderReader, expected: Record<string, string>) {
  for (const [name, value] of Object.entries(expected))
    expect(headers.get(name.toLowerCase()), `${where}: ${name}`).toBe(value);
}

function checkAnswer(where: string, status: number, text: string, documented: string[]) {
  expect(status, `${where} answered ${status}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(documented, `${where} answered ${status}, which its operation does not document`).toContain(
    String(status),
  );
  if (status < 400) return;
  expectErrorBody(where, status, text);
}

function expectErrorBody(where: string, status: number, text: string) {
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(
    Object.keys(body).filter((k) => !["statusCode", "error", "message", "issues"].includes(k)),
    where,
  ).toEqual([]);
  expect(body.statusCode, where).toBe(status);
  expect(typeof body.error, where).toBe("string");
  expect(typeof body.message, where).toBe("string");
  if (body.issues !== undefined) {
    for (const issue of body.issues as Record<string, unknown>[]) {
      expect(Object.keys(issue).sort(), where).toEqual(["message", "path"]);
    }
  }
}

/** Each walk sends a few thousand requests, one at a time: 15 s alone, more beside other test files. */
const SENDS_THOUSANDS = { timeout: 120_000 };

describe("hostile input generated from the OpenAPI documents", SENDS_THOUSANDS, () => {
  it("the resume service never answers 5xx and always the error body", async () => {
    const document = (await (await fetch(`${web.url}/openapi.json`)).json()) as OpenApiDocument;
    let sent = 0;
    for (const op of operationsOf(document)) {
      for (const request of requestsFor(op)) {
        const response = await fetch(`${web.url}${request.path}`, {
          method: op.method,
          headers: {
            authorization,
            ...(request.body !== undefined
              ? { "content-type": request.contentType ?? "application/json" }
              : {}),
            ...request.headers,
          },
          ...(request.body !== undefined ? { body: request.body } : {}),
        });
        const where = `${op.method} ${request.path.slice(0, 80)} ${request.body?.slice(0, 60) ?? ""}`;
        checkAnswer(where, response.status, await response.text(), op.documented);
        expectHeaders(where, response.headers, { ...SECURITY_HEADERS, "cache-control": "no-store" });
        sent += 1;
      }
    }
    expect(sent).toBeGreaterThan(500);
  });

  it("the ledger never answers 5xx and always the error body, signed or not", async () => {
    const document = (await (await fetch(`${ledger.url}/openapi.json`)).json()) as OpenApiDocument;
    const aws = new AwsClient({
      accessKeyId: FULL_KEY.accessKeyId,
      secretAccessKey: FULL_KEY.secretAccessKey,
      region: REGION,
      service: "execute-api",
      retries: 0,
    });
    let sent = 0;
    for (const op of operationsOf(document)) {
      for (const request of requestsFor(op)) {
        const headers: Record<string, string> = {
          ...(request.body !== undefined
            ? { "content-type": request.contentType ?? "application/json" }
            : {}),
          ...request.headers,
        };
        const init = {
          method: op.method,
          headers,
          ...(request.body !== undefined ? { body: request.body } : {}),
        };
        const signed = await aws.fetch(`${ledger.url}${request.path}`, init);
        const where = `signed ${op.method} ${request.path.slice(0, 80)} ${request.body?.slice(0, 60) ?? ""}`;
        checkAnswer(where, signed.status, await signed.text(), op.documented);
        expectHeaders(where, signed.headers, LEDGER_SECURITY_HEADERS);
        const unsigned = await fetch(`${ledger.url}${request.path}`, init);
        const unsignedWhere = `unsigned ${op.method} ${request.path.slice(0, 80)}`;
        checkAnswer(unsignedWhere, unsigned.status, await unsigned.text(), op.documented);
        expectHeaders(unsignedWhere, unsigned.headers, LEDGER_SECURITY_HEADERS);
        sent += 2;
      }
    }
    expect(sent).toBeGreaterThan(300);
  });
});

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"];

/** A 405 with the methods the path takes in Allow, the error body (none for HEAD) and the given headers. */
function expectMethodNotAllowed(
  where: string,
  method: string,
  answer: RawAnswer,
  allow: string,
  headers: Record<string, string>,
) {
  expect(answer.status, `${where}: ${answer.body.slice(0, 200)}`).toBe(405);
  expect(answer.headers.get("allow"), where).toBe(allow);
  expectHeaders(where, answer.headers, headers);
  if (method === "HEAD") expect(answer.body, where).toBe("");
  else expectErrorBody(where, 405, answer.body);
}

/** Requests fetch will not send (TRACE, a target that is not a path) are written by hand. */
const send = (url: string, method: string, target: string, headers: [string, string][] = []) =>
  sendRaw(url, { requestLine: `${method} ${target} HTTP/1.1`, headers });

describe("hostile methods, paths and request targets beyond the OpenAPI documents", () => {
  it("the web app answers each path's other methods, TRACE and OPTIONS included, with 405, Allow and the error body", async () => {
    const allowed: Record<string, string> = {
      "/": "GET, HEAD",
      "/editor": "GET, HEAD",
      "/sign-in": "GET, HEAD",
      "/docs": "GET, HEAD",
      "/docs/swagger-ui.css": "GET, HEAD",
      "/openapi.json": "GET, HEAD",
      "/.well-known/jwks.json": "GET, HEAD",
      "/icon.svg": "GET, HEAD",
      "/no-such-page": "GET, HEAD",
      "/api/session": "POST",
      "/healthz": "GET, HEAD",
      "/livez": "GET, HEAD",
      "/me/profile": "GET, HEAD, PUT",
      // The editor's tRPC: a query is read with GET (and HEAD), a mutation sent with POST.
      "/api/trpc/profile.get": "GET, HEAD",
      "/api/trpc/profile.put": "POST",
      "/api/trpc/profile.get,hobbies.list": "GET, HEAD",
    };
    for (const [path, allow] of Object.entries(allowed)) {
      for (const method of METHODS.filter((m) => !allow.split(", ").includes(m))) {
        const answer = await send(web.url, method, path, [["Authorization", authorization]]);
        expectMethodNotAllowed(`web ${method} ${path}`, method, answer, allow, SECURITY_HEADERS);
      }
    }
    // The API's document, as its GET does, says the API's version.
    for (const path of ["/openapi.json", "/me/profile", "/healthz"]) {
      for (const method of ["POST", "DELETE", "TRACE"]) {
        const answer = await send(web.url, method, path);
        expect(answer.headers.get("api-version"), `web ${method} ${path}`).toBe("1.0.0");
      }
    }
    // A share link's public pages send their address to nobody (Referrer-Policy), their errors too.
    const publicHeaders = {
      ...SECURITY_HEADERS,
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex",
    };
    for (const path of [`/r/${"A".repeat(32)}`, `/r/${"A".repeat(32)}.pdf`, "/r/x"]) {
      for (const method of METHODS.filter((m) => m !== "GET" && m !== "HEAD")) {
        const answer = await send(web.url, method, path);
        expectMethodNotAllowed(`web ${method} ${path}`, method, answer, "GET, HEAD", publicHeaders);
      }
    }
  });

  it("the ledger answers its open paths' other methods with 405 and Allow, and TRACE never with a 5xx", async () => {
    for (const path of ["/openapi.json", "/healthz", "/livez"]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]) {
        const answer = await send(ledger.url, method, path);
        expectMethodNotAllowed(
          `ledger ${method} ${path}`,
          method,
          answer,
          "GET, HEAD",
          LEDGER_SECURITY_HEADERS,
        );
      }
    }
    // Signed paths need a signature before they can be a 404 or a 405, as on API Gateway.
    for (const path of ["/", "/accounts"]) {
      const answer = await send(ledger.url, "TRACE", path);
      expect(answer.status, `unsigned TRACE ${path}`).toBe(403);
      expect(answer.headers.get("x-amzn-errortype")).toBe("MissingAuthenticationToken");
      expectHeaders(`unsigned TRACE ${path}`, answer.headers, LEDGER_SECURITY_HEADERS);
    }
    const signer = new SignatureV4({
      credentials: { accessKeyId: FULL_KEY.accessKeyId, secretAccessKey: FULL_KEY.secretAccessKey },
      region: REGION,
      service: "execute-api",
      sha256: Sha256,
    });
    const { hostname, port, host } = new URL(ledger.url);
    const signed = await signer.sign({
      method: "TRACE",
      protocol: "http:",
      hostname,
      port: Number(port),
      path: "/accounts",
      headers: { host },
    });
    const trace = await send(ledger.url, "TRACE", "/accounts", Object.entries(signed.headers));
    expectMethodNotAllowed(
      "signed TRACE /accounts",
      "TRACE",
      trace,
      "POST, GET, HEAD", // in the order of the ledger's OpenAPI document
      LEDGER_SECURITY_HEADERS,
    );
  });

  it("an absolute-form or * request target is a 400 with the error body on both services, never a redirect", async () => {
    for (const [service, url, headers] of [
      ["web", web.url, { ...SECURITY_HEADERS, "cache-control": "no-store", "api-version": "1.0.0" }],
      ["ledger", ledger.url, LEDGER_SECURITY_HEADERS],
    ] as const) {
      for (const [method, target] of [
        ["GET", "http://evil.example/x"],
        ["GET", "https://evil.example/"],
        ["GET", "http://evil.example/me/profile"],
        ["GET", "http://evil.example/healthz"],
        ["GET", `${url}/healthz`],
        ["GET", "*"],
        ["OPTIONS", "*"],
      ]) {
        const where = `${service} ${method} ${target}`;
        const answer = await send(url, method!, target!);
        expect(answer.status, `${where}: ${answer.body.slice(0, 200)}`).toBe(400);
        expect(answer.headers.get("location"), where).toBeUndefined();
        expectErrorBody(where, 400, answer.body);
        expectHeaders(where, answer.headers, headers);
      }
    }
  });

  it("a request Node's HTTP parser refuses, or would answer bare, is answered with the error body and the service's headers", async () => {
    for (const [service, url, headers] of [
      ["web", web.url, SECURITY_HEADERS],
      ["ledger", ledger.url, LEDGER_SECURITY_HEADERS],
    ] as const) {
      for (const [what, request, status, error] of [
        ["an unknown method", { requestLine: "FOO / HTTP/1.1" }, 400, "BAD_REQUEST"],
        ["a malformed request line", { requestLine: "GET /  HTTP/1.1 extra" }, 400, "BAD_REQUEST"],
        ["an HTTP version it does not speak", { requestLine: "GET / HTTP/9.9" }, 400, "BAD_REQUEST"],
        [
          "a header name with a space",
          { requestLine: "GET /livez HTTP/1.1", headers: [["Bad Name", "x"]] },
          400,
          "BAD_REQUEST",
        ],
        [
          "headers past 16 KiB",
          { requestLine: "GET /livez HTTP/1.1", headers: [["X-Big", "a".repeat(20_000)]] },
          431,
          "REQUEST_HEADER_FIELDS_TOO_LARGE",
        ],
        // Node's parser takes these, then answers bare or not at all unless the server does.
        [
          "an Expect other than 100-continue",
          { requestLine: "GET /livez HTTP/1.1", headers: [["Expect", "fries"]] },
          417,
          "EXPECTATION_FAILED",
        ],
        [
          "an HTTP/1.1 request without Host",
          { requestLine: "GET /livez HTTP/1.1", withoutHost: true },
          400,
          "BAD_REQUEST",
        ],
        [
          "CONNECT (a host as target)",
          { requestLine: "CONNECT example.org:443 HTTP/1.1" },
          400,
          "BAD_REQUEST",
        ],
        ["CONNECT to a path", { requestLine: "CONNECT /accounts HTTP/1.1" }, 400, "BAD_REQUEST"],
      ] as const) {
        const where = `${service}: ${what}`;
        const answer = await sendRaw(url, request as RawRequest);
        expect(answer.status, `${where}: ${answer.body.slice(0, 200)}`).toBe(status);
        expectErrorBody(where, status, answer.body);
        expect((JSON.parse(answer.body) as { error: string }).error, where).toBe(error);
        expectHeaders(where, answer.headers, headers);
        expect(answer.headers.get("connection"), where).toBe("close");
      }
    }
  });

  it("a /docs asset named like a member of every object is a 404 with the error body", async () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      const response = await fetch(`${web.url}/docs/${name}`);
      expect(response.status, `/docs/${name}`).toBe(404);
      expectErrorBody(`/docs/${name}`, 404, await response.text());
    }
  });
});

/**
 * The themed pages (GET /me/resume?format=html) of resumes whose every field
 * holds text meant to run or load once on the page (issue 22's cases and
 * other spellings of them): the page holds nothing that would.
 */
describe("hostile text on the themed pages", () => {
  it("a resume with each payload in every field: each theme's page holds nothing that runs or loads", async () => {
    const active = [];
    for (const text of THEME_PAYLOADS) {
      const headers = { authorization: (await newUser()).authorization, "content-type": "application/json" };
      const stored = await fetch(`${web.url}/me/resume`, {
        method: "PUT",
        headers,
        body: JSON.stringify(resumeCarrying(text)),
      });
      expect(stored.status, await stored.text()).toBe(200);
      for (const theme of THEME_NAMES) {
        const page = await fetch(`${web.url}/me/resume?format=html&theme=${theme}`, { headers });
        expect(page.status).toBe(200);
        const found = activeContent(await page.text());
        if (found.length > 0) active.push({ theme, text, found });
      }
    }
    expect(active).toEqual([]);
  });
});

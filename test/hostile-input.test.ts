import { AwsClient } from "aws4fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THEME_NAMES } from "@app/resume/client";
import { activeContent } from "./active-content.ts";
import { resumeCarrying, THEME_PAYLOADS } from "./hostile-text.ts";
import { FULL_KEY, REGION, startLedgerServer, type LedgerServer } from "./ledger-server.ts";
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

function requestsFor(op: Operation): { path: string; body?: string; contentType?: string }[] {
  const fill = (segment: string) => op.path.replace(/\{[^}]+\}/g, segment);
  const validId = "6b0c3c4e-4d5e-4f60-8a1b-2c3d4e5f6a7b";
  const requests: { path: string; body?: string; contentType?: string }[] = [];
  for (const segment of HOSTILE_PATH_SEGMENTS)
    if (op.path.includes("{")) requests.push({ path: fill(segment) });
  for (const parameter of op.parameters.filter((p) => p.in === "query")) {
    for (const value of HOSTILE_QUERY_VALUES)
      requests.push({ path: `${fill(validId)}?${parameter.name}=${encodeURIComponent(value)}` });
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

function checkAnswer(where: string, status: number, text: string, documented: string[]) {
  expect(status, `${where} answered ${status}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(documented, `${where} answered ${status}, which its operation does not document`).toContain(
    String(status),
  );
  if (status < 400) return;
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

describe("hostile input generated from the OpenAPI documents", () => {
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
          },
          ...(request.body !== undefined ? { body: request.body } : {}),
        });
        checkAnswer(
          `${op.method} ${request.path.slice(0, 80)} ${request.body?.slice(0, 60) ?? ""}`,
          response.status,
          await response.text(),
          op.documented,
        );
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
        const headers: Record<string, string> =
          request.body !== undefined ? { "content-type": request.contentType ?? "application/json" } : {};
        const init = {
          method: op.method,
          headers,
          ...(request.body !== undefined ? { body: request.body } : {}),
        };
        const signed = await aws.fetch(`${ledger.url}${request.path}`, init);
        checkAnswer(
          `signed ${op.method} ${request.path.slice(0, 80)} ${request.body?.slice(0, 60) ?? ""}`,
          signed.status,
          await signed.text(),
          op.documented,
        );
        const unsigned = await fetch(`${ledger.url}${request.path}`, init);
        checkAnswer(
          `unsigned ${op.method} ${request.path.slice(0, 80)}`,
          unsigned.status,
          await unsigned.text(),
          op.documented,
        );
        sent += 2;
      }
    }
    expect(sent).toBeGreaterThan(300);
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

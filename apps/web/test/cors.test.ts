/**
 * CORS for /me/* (CORS_ALLOWED_ORIGINS): preflights per the Fetch standard
 * for allowed origins, the headers a cross-origin script needs on the
 * answers, and nothing for other origins or when no origin is configured.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resumeOpenApiDocument } from "@app/resume";
import { startResumeApi } from "../../../test/resume-api.ts";
import { newUser } from "../../../test/tokens.ts";
import type { WebServer } from "../../../test/web-server.ts";

const ALLOWED = "https://app.example.org";
let open: WebServer;
let closed: WebServer;

beforeAll(async () => {
  [open, closed] = await Promise.all([
    startResumeApi({ corsAllowedOrigins: [ALLOWED, "http://localhost:5173"] }),
    startResumeApi(),
  ]);
});

afterAll(async () => {
  await Promise.all([open?.stop(), closed?.stop()]);
});

const preflight = (url: string, origin: string) =>
  fetch(`${url}/me/skills`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type, idempotency-key",
    },
  });

describe("CORS on /me/*", () => {
  it("answers a preflight from an allowed origin with 204 and what it may send", async () => {
    const answer = await preflight(open.url, ALLOWED);
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(answer.headers.get("access-control-allow-methods")).toBe("GET, HEAD, POST, PUT, PATCH, DELETE");
    // Every method a route of /me takes, so that a script may call each of them.
    const methods = new Set(
      Object.values(resumeOpenApiDocument.paths ?? {}).flatMap((item) => Object.keys(item)),
    );
    const allowed = answer.headers.get("access-control-allow-methods")!.toLowerCase().split(", ");
    expect([...methods].filter((method) => !allowed.includes(method))).toEqual([]);
    expect(answer.headers.get("access-control-allow-headers")).toBe(
      "Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, If-Unmodified-Since, X-Request-Id",
    );
    expect(answer.headers.get("access-control-max-age")).toBe("600");
    expect(answer.headers.get("vary")).toContain("Origin");
    expect(await answer.text()).toBe("");
  });

  it("lets an allowed origin read the answer and the headers clients need", async () => {
    const { authorization } = await newUser();
    const created = await fetch(`${open.url}/me/skills`, {
      method: "POST",
      headers: { origin: ALLOWED, authorization, "content-type": "application/json" },
      body: JSON.stringify({ name: "Go", category: "language" }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    const exposed = created.headers.get("access-control-expose-headers")!.split(", ");
    expect(exposed).toEqual(
      expect.arrayContaining(["Location", "ETag", "Retry-After", "API-Version", "X-Request-Id"]),
    );
    expect(created.headers.get("vary")).toBe("Origin");
    const refused = await fetch(`${open.url}/me/skills`, { headers: { origin: ALLOWED } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(ALLOWED);
  });

  it("gives another origin nothing: its preflight is the 405 of any OPTIONS, its answers carry no CORS header", async () => {
    const answer = await preflight(open.url, "https://evil.example");
    expect(answer.status).toBe(405);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    const read = await fetch(`${open.url}/me/skills`, { headers: { origin: "https://evil.example" } });
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
    expect(read.headers.get("vary")).toBe("Origin");
  });

  it("allows no cross-origin access when no origin is configured", async () => {
    const answer = await preflight(closed.url, ALLOWED);
    expect(answer.status).toBe(405);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    const read = await fetch(`${closed.url}/me/skills`, { headers: { origin: ALLOWED } });
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

let web: WebServer;

beforeAll(async () => {
  web = await startWebServer();
});

afterAll(async () => {
  await web?.stop();
});

describe("web app", () => {
  it("GET /healthz answers 200 when the database answers", async () => {
    const response = await fetch(`${web.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("answers HEAD like GET, without a body, and 405 with Allow to other methods", async () => {
    const head = await fetch(`${web.url}/healthz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await fetch(`${web.url}/healthz`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect(await post.json()).toMatchObject({ statusCode: 405, error: "METHOD_NOT_ALLOWED" });
  });

  it("serves the local issuer's JWKS without private key material", async () => {
    const response = await fetch(`${web.url}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: Record<string, string>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256" });
    expect(keys[0]).not.toHaveProperty("d");
  });
});

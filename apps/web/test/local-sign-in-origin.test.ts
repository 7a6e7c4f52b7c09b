/**
 * The local sign-in, where anyone signs in as anyone, reached only from this
 * machine: a sign-in form posted from another site is refused, and so is any
 * request naming another host than loopback (a site whose name was pointed at
 * 127.0.0.1: DNS rebinding).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendRaw } from "../../../test/raw-http.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

let web: WebServer;

beforeAll(async () => {
  web = await startWebServer();
});

afterAll(async () => {
  await web?.stop();
});

const signIn = (headers: Record<string, string>) =>
  fetch(`${web.url}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: "user=alice&next=/editor",
    redirect: "manual",
  });

describe("the local sign-in", () => {
  it("refuses a sign-in form posted from another site; takes one from this site, or sent without an Origin", async () => {
    const elsewhere = await signIn({ origin: "http://evil.example" });
    expect([elsewhere.status, await elsewhere.json()]).toEqual([
      403,
      { statusCode: 403, error: "FORBIDDEN", message: "a sign-in form must be sent from this site" },
    ]);
    expect(elsewhere.headers.get("set-cookie")).toBeNull();
    expect((await signIn({ origin: "null" })).status).toBe(403);

    for (const headers of [{ origin: web.url }, {}] as Record<string, string>[]) {
      const here = await signIn(headers);
      expect(here.status).toBe(303);
      expect(here.headers.get("location")).toBe("/editor");
      expect(here.headers.get("set-cookie")).toMatch(/^resume_session=/);
    }
  });

  it("answers 421 to a request naming a host other than loopback, whatever the path", async () => {
    const { port } = new URL(web.url);
    for (const path of ["/healthz", "/api/session", "/me/resume", "/editor"]) {
      const rebound = await sendRaw(web.url, {
        requestLine: `GET ${path} HTTP/1.1`,
        headers: [["Host", `evil.example:${port}`]],
      });
      expect([rebound.status, JSON.parse(rebound.body)], path).toEqual([
        421,
        {
          statusCode: 421,
          error: "MISDIRECTED_REQUEST",
          message: `this server answers requests to localhost only, not to evil.example:${port}`,
        },
      ]);
      // Every answer of the API's paths carries its version and no-store, this one too.
      expect([rebound.headers.get("api-version"), rebound.headers.get("cache-control")], path).toEqual([
        "1.0.0",
        "no-store",
      ]);
    }
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `app.localhost:${port}`,
      "[::1]",
      "LOCALHOST",
    ]) {
      const named = await sendRaw(web.url, {
        requestLine: "GET /healthz HTTP/1.1",
        headers: [["Host", host]],
      });
      expect(named.status, host).toBe(200);
    }
  });

  it("marks its cookie Secure when PUBLIC_URL is https, as behind a proxy that ends TLS", async () => {
    const proxied = await startWebServer({ PUBLIC_URL: "https://resume.example.org" });
    try {
      const answer = await fetch(`${proxied.url}/api/session`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "user=alice",
        redirect: "manual",
      });
      expect(answer.headers.get("set-cookie")).toMatch(/^resume_session=[^;]+;.*; Secure$/);
    } finally {
      await proxied.stop();
    }
    expect((await signIn({})).headers.get("set-cookie")).not.toMatch(/Secure/);
  });
});

import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { startProductionWeb, type WebServer } from "../test/production-web.ts";
import { tokenFor } from "../test/tokens.ts";

/**
 * A browser-based REST client on another origin: a blank page served by a
 * server of its own (no Content-Security-Policy of ours in the way) calls the
 * API with a bearer token and an Idempotency-Key, then replaces what it made
 * with If-Match (the ETag it read), so Chromium sends a real preflight first. One API server allows the client's origin
 * (CORS_ALLOWED_ORIGINS); the e2e server allows none.
 */
let client: http.Server;
let clientUrl: string;
let allowing: WebServer | undefined;

test.beforeAll(async () => {
  client = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>REST client</title>");
  });
  await new Promise<void>((resolve) => client.listen(0, "127.0.0.1", resolve));
  clientUrl = `http://127.0.0.1:${(client.address() as AddressInfo).port}`;

  allowing = await startProductionWeb(process.env.E2E_DATABASE_URL!, { CORS_ALLOWED_ORIGINS: clientUrl });
});

test.afterAll(async () => {
  await allowing?.stop();
  client?.close();
});

/**
 * What the client page's script gets from a cross-origin POST to `apiUrl` and
 * a conditional PUT of what it made, or why fetch failed.
 */
async function postFromClientPage(page: Page, apiUrl: string, token: string) {
  await page.goto(clientUrl);
  return page.evaluate(
    async ({ apiUrl, token }) => {
      try {
        const created = await fetch(`${apiUrl}/me/hobbies`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            "idempotency-key": `cross-origin-${Date.now()}`,
          },
          body: JSON.stringify({ name: "Cross-origin" }),
        });
        const location = created.headers.get("location");
        const etag = created.headers.get("etag");
        const replaced = await fetch(`${apiUrl}${location}`, {
          method: "PUT",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            "if-match": etag ?? "",
          },
          body: JSON.stringify({ name: "Cross-origin, replaced" }),
        });
        return { status: created.status, location, etag, replaced: replaced.status, failed: null };
      } catch (error) {
        return { status: 0, location: null, etag: null, replaced: 0, failed: String(error) };
      }
    },
    { apiUrl, token },
  );
}

test("a page of an allowed origin calls /me/* across origins, preflight and all", async ({ page }) => {
  // Authorization and a JSON body make this a non-simple request: Chromium answers it only after a preflight succeeds.
  const result = await postFromClientPage(page, allowing!.url, await tokenFor(`cors-${Date.now()}`));
  expect(result).toMatchObject({ status: 201, failed: null });
  expect(result.location).toMatch(/^\/me\/hobbies\/[0-9a-f-]{36}$/);
  // ETag is exposed to the script, and If-Match passes the preflight.
  expect(result.etag).toMatch(/^"\d{4}-\d\d-\d\dT[\d:.]+Z"$/);
  expect(result.replaced).toBe(200);
});

test("a page of another origin is kept out when the API allows no origin", async ({ page }) => {
  const result = await postFromClientPage(
    page,
    process.env.E2E_BASE_URL!,
    await tokenFor(`cors-${Date.now()}`),
  );
  expect(result.failed).toMatch(/Failed to fetch/);
});

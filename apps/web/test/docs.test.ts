import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

let web: WebServer;

beforeAll(async () => {
  web = await startWebServer();
});

afterAll(async () => {
  await web?.stop();
});

describe("GET /docs", () => {
  it("serves Swagger UI from the app itself (no CDN) pointed at /openapi.json", async () => {
    const page = await fetch(`${web.url}/docs`);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources).toEqual(["/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js", "/docs/docs-init.js"]);
    for (const source of sources) {
      const asset = await fetch(`${web.url}${source}`);
      expect(asset.status, source).toBe(200);
      expect((await asset.text()).length, source).toBeGreaterThan(10);
    }
    expect(await (await fetch(`${web.url}/docs/docs-init.js`)).text()).toContain('url: "/openapi.json"');
    expect((await fetch(`${web.url}/docs/../../etc/passwd`)).status).toBe(404);
    expect((await fetch(`${web.url}/docs/package.json`)).status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/free-port.ts";
import { httpClient } from "../../../test/http-client.ts";
import { newUser } from "../../../test/tokens.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

/** The web app pointed at a PostgreSQL that is not there. */
let web: WebServer;

beforeAll(async () => {
  web = await startWebServer({ DATABASE_URL: `postgresql://postgres:x@127.0.0.1:${await freePort()}/app` });
});

afterAll(async () => {
  await web?.stop();
});

describe("with the database down", () => {
  it("answers /healthz and /me routes with 503 and the error body within 3 seconds", async () => {
    const api = httpClient(web.url, { authorization: (await newUser()).authorization });
    for (const call of [
      () => api.get("/healthz"),
      () => api.get("/me/resume"),
      () => api.post("/me/hobbies", { name: "x" }),
    ]) {
      const started = Date.now();
      const result = await call();
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(result.status).toBe(503);
      expect(result.body).toEqual({
        statusCode: 503,
        error: "SERVICE_UNAVAILABLE",
        message: expect.any(String),
      });
      expect(result.text).not.toMatch(/ECONNREFUSED|at .*\.ts|prisma/i);
    }
  });
});

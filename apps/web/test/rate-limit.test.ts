import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpClient } from "../../../test/http-client.ts";
import { newUser } from "../../../test/tokens.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

/** A server of its own with a limit of 5 requests a minute, so the test need not send 301. */
let web: WebServer;

beforeAll(async () => {
  web = await startWebServer({ RATE_LIMIT_PER_MINUTE: "5" });
});

afterAll(async () => {
  await web?.stop();
});

describe("per-user rate limit", () => {
  it("answers 429 with Retry-After past the limit, to that user only", async () => {
    const first = httpClient(web.url, { authorization: (await newUser()).authorization });
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await first.get("/me/skills")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);

    const limited = await first.post("/me/skills", { name: "Go", category: "language" });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      statusCode: 429,
      error: "TOO_MANY_REQUESTS",
      message: expect.any(String),
    });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const second = httpClient(web.url, { authorization: (await newUser()).authorization });
    expect((await second.get("/me/skills")).status).toBe(200);
    expect((await first.get("/me/skills")).status).toBe(429);
  });
});

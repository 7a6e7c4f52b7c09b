import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createDatabase } from "@app/db";
import { createSharedRateLimit } from "../src/api/shared-rate-limit.ts";
import { httpClient } from "../../../test/http-client.ts";
import { newUser, tokenFor } from "../../../test/tokens.ts";
import { startResumeApi } from "../../../test/resume-api.ts";
import type { WebServer } from "../../../test/web-server.ts";

/** An API of its own with a limit of 5 requests a minute, so the test need not send 301. */
let web: WebServer;

beforeAll(async () => {
  web = await startResumeApi({ rateLimitPerMinute: 5 });
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

  it("counts a GET /me/resume answered from memory too, and refuses it past the limit", async () => {
    const client = httpClient(web.url, { authorization: (await newUser()).authorization });
    expect((await client.post("/me/skills", { name: "Go", category: "language" })).status).toBe(201);
    const first = await client.get("/me/resume");
    const kept = [];
    for (let i = 0; i < 3; i += 1) kept.push(await client.get("/me/resume"));
    expect(kept.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(kept.every((r) => r.text === first.text)).toBe(true);

    const limited = await client.get("/me/resume");
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ statusCode: 429, error: "TOO_MANY_REQUESTS" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("api-version")).toBe("1.0.0");
  });

  it("answers 401 to a token whose subject is no storable text, and the requests of others alongside it as usual", async () => {
    const others = await Promise.all(Array.from({ length: 10 }, () => newUser()));
    const bad = [`nul-${randomUUID()}\u0000`, `surrogate-${randomUUID()}\ud800`];
    const badTokens = await Promise.all(bad.map((userId) => tokenFor(userId)));
    // Four requests of each other user (this API allows 5 a minute) and ten bad ones, interleaved.
    const good = others.flatMap(({ authorization }) => Array(4).fill({ bad: false, authorization }));
    const requests = Array.from({ length: 50 }, (_, i) =>
      i % 5 === 0 ? { bad: true, authorization: `Bearer ${badTokens[i % 2]}` } : good.pop()!,
    );
    const answers = await Promise.all(
      requests.map(({ authorization }) => httpClient(web.url, { authorization }).get("/me/skills")),
    );
    answers.forEach((answer, i) => {
      expect(answer.status, `request ${i}: ${answer.text}`).toBe(requests[i]!.bad ? 401 : 200);
    });
    expect(answers[0]!.body).toMatchObject({ statusCode: 401, error: "UNAUTHORIZED" });
  });

  it("fails only the bad user's lease when one statement serves several users (a user id PostgreSQL cannot hold)", async () => {
    const db = createDatabase({ connectionString: inject("databaseUrl"), poolSize: 2 });
    const limit = createSharedRateLimit(db, 300);
    try {
      const good = Array.from({ length: 20 }, () => `lease-${randomUUID()}`);
      const taken = await Promise.allSettled([
        ...good.map((user) => limit.take(user)),
        limit.take(`bad-${randomUUID()}\u0000`),
      ]);
      expect(taken.slice(0, 20)).toEqual(Array(20).fill({ status: "fulfilled", value: 0 }));
      expect(taken[20]!.status).toBe("rejected");
    } finally {
      await db.$disconnect();
    }
  });

  it("forgets the windows that ended once it holds more than 10,000, looking at most once a second", async () => {
    const db = createDatabase({ connectionString: inject("databaseUrl"), poolSize: 2 });
    const limit = createSharedRateLimit(db, 300);
    const takeForNewUsers = async (count: number) => {
      const users = Array.from({ length: count }, () => `memory-${randomUUID()}`);
      expect(new Set(await Promise.all(users.map((user) => limit.take(user))))).toEqual(new Set([0]));
    };
    // Only Date is fake: windows end by Date.now(), and each lease's window is a minute from it.
    vi.useFakeTimers({ toFake: ["Date"] });
    const at = (ms: number) => vi.setSystemTime(ms);
    try {
      const first = Date.now();
      await takeForNewUsers(10_000);
      expect(limit.heldWindows()).toBe(10_000);
      at(first + 61_000);
      await takeForNewUsers(1);
      expect(limit.heldWindows()).toBe(1);

      const second = Date.now();
      await takeForNewUsers(10_000);
      at(second + 59_500); // a sweep: nothing has ended yet
      await takeForNewUsers(1);
      expect(limit.heldWindows()).toBe(10_002);
      at(second + 60_200); // all but the last one ended, but a sweep was 0.7 s ago
      await takeForNewUsers(1);
      expect(limit.heldWindows()).toBe(10_003);
      at(second + 60_500); // a second after the last sweep
      await takeForNewUsers(1);
      expect(limit.heldWindows()).toBe(3);
    } finally {
      vi.useRealTimers();
      await db.$disconnect();
    }
  });
});

import { createHash } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccessToken } from "@app/resume/client";
import { httpClient, type HttpClient } from "../../../test/http-client.ts";
import { startTwoResumeApis } from "../../../test/resume-api.ts";
import { MINIMAL } from "../../../test/resume-fixtures.ts";
import { newUser } from "../../../test/tokens.ts";
import type { WebServer } from "../../../test/web-server.ts";

/** Two instances on one database: what one revokes, the other refuses at once. */
let first: WebServer;
let second: WebServer;
let client: pg.Client;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ first, second, sql: client, stop } = await startTwoResumeApis());
});

afterAll(() => stop?.());

type Created = AccessToken & { token: string };

/** A person signed in with the provider's JWT, and a personal token of theirs with `scopes`. */
async function personWithToken(scopes: string[], server: WebServer = first) {
  const { userId, authorization } = await newUser();
  const signedIn = httpClient(server.url, { authorization });
  const created = await signedIn.post<Created>("/me/tokens", { name: "script", scopes });
  expect(created.status).toBe(201);
  const viaToken = (on: WebServer = server) =>
    httpClient(on.url, { authorization: `Bearer ${created.body.token}` });
  return { userId, signedIn, created: created.body, viaToken };
}

const lastUsedAt = async (id: string) =>
  (await client.query(`SELECT last_used_at FROM resume.access_tokens WHERE id = $1`, [id])).rows[0]
    ?.last_used_at as Date | null | undefined;

describe("POST /me/tokens", () => {
  it("answers 201 with the token once, and keeps only its SHA-256", async () => {
    const { authorization, userId } = await newUser();
    const api = httpClient(first.url, { authorization });
    const created = await api.post<Created>("/me/tokens", { name: "  CI deploys ", scopes: ["resume:read"] });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/me/tokens/${created.body.id}`);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "CI deploys",
      scopes: ["resume:read"],
      created_at: expect.any(String),
      expires_at: expect.any(String),
      last_used_at: null,
      token: expect.stringMatching(/^rsm_[A-Za-z0-9_-]{43}$/),
    });
    const days = (Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)) / 86_400_000;
    expect(days).toBe(90);

    const { rows } = await client.query(`SELECT * FROM resume.access_tokens WHERE user_id = $1`, [userId]);
    expect(rows).toHaveLength(1);
    expect((rows[0].token_hash as Buffer).toString("hex")).toBe(
      createHash("sha256").update(created.body.token).digest("hex"),
    );
    expect(JSON.stringify(rows)).not.toContain(created.body.token.slice(4));

    const { token, ...shown } = created.body;
    expect((await api.get("/me/tokens")).body).toEqual({ items: [shown] });
    expect(token).not.toBe("");
    expect((await api.get(`/me/tokens/${created.body.id}`)).body).not.toHaveProperty("token");
  });

  it("takes 1 to 365 days, and refuses what is not a name, a scope or a day count", async () => {
    const api = httpClient(first.url, { authorization: (await newUser()).authorization });
    for (const days of [1, 365]) {
      const created = await api.post<Created>("/me/tokens", {
        name: "n",
        scopes: ["resume:write"],
        expires_in_days: days,
      });
      expect((Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)) / 86_400_000).toBe(
        days,
      );
    }
    const refused: [unknown, string][] = [
      [{ name: "", scopes: ["resume:read"] }, "name"],
      [{ name: "x".repeat(101), scopes: ["resume:read"] }, "name"],
      [{ scopes: ["resume:read"] }, "name"],
      [{ name: "n", scopes: [] }, "scopes"],
      [{ name: "n", scopes: ["resume:read", "resume:write"] }, "scopes"],
      [{ name: "n", scopes: ["admin"] }, "scopes.0"],
      [{ name: "n", scopes: "resume:read" }, "scopes"],
      [{ name: "n", scopes: ["resume:read"], expires_in_days: 0 }, "expires_in_days"],
      [{ name: "n", scopes: ["resume:read"], expires_in_days: 366 }, "expires_in_days"],
      [{ name: "n", scopes: ["resume:read"], expires_in_days: 1.5 }, "expires_in_days"],
      [{ name: "n", scopes: ["resume:read"], expires_in_days: "30" }, "expires_in_days"],
      [{ name: "n", scopes: ["resume:read"], never: true }, "never"],
    ];
    for (const [body, path] of refused) {
      const answer = await api.post("/me/tokens", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.issues, JSON.stringify(body)).toEqual([{ path, message: expect.any(String) }]);
    }
    expect((await api.get<{ items: unknown[] }>("/me/tokens")).body.items).toHaveLength(2);
  });

  it("stops at 50 tokens a person", async () => {
    const api = httpClient(first.url, { authorization: (await newUser()).authorization });
    const answers = await Promise.all(
      Array.from({ length: 52 }, (_, i) =>
        api.post("/me/tokens", { name: `t${i}`, scopes: ["resume:read"] }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(50);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.message)).toEqual([
      "at most 50 access tokens; revoke one first",
      "at most 50 access tokens; revoke one first",
    ]);
  });
});

describe("a personal access token on /me/*", () => {
  it("with resume:write reads and writes like its owner", async () => {
    const { viaToken, userId } = await personWithToken(["resume:write"]);
    const api = viaToken();
    expect((await api.put("/me/profile", { name: "Scripted" })).status).toBe(200);
    const skill = await api.post("/me/skills", MINIMAL.skills);
    expect(skill.status).toBe(201);
    expect((await api.put("/me/resume?format=jsonresume", { basics: { name: "Imported" } })).status).toBe(
      200,
    );
    expect((await api.get("/me/resume")).body).toMatchObject({
      profile: { name: "Imported", pk: `USER#${userId}` },
    });
  });

  it("with resume:read reads, and every write is a 403 INSUFFICIENT_SCOPE that writes nothing", async () => {
    const { viaToken, signedIn, userId } = await personWithToken(["resume:read"]);
    const hobby = await signedIn.post("/me/hobbies", { name: "Chess" });
    const api = viaToken();
    expect((await api.get("/me/hobbies")).status).toBe(200);
    expect((await api.get("/me/resume?format=markdown")).status).toBe(200);
    const writes = [
      api.put("/me/profile", { name: "x" }),
      api.post("/me/hobbies", { name: "x" }),
      api.put(`/me/hobbies/${String(hobby.body.id)}`, { name: "x" }),
      api.delete(`/me/hobbies/${String(hobby.body.id)}`),
      api.put("/me/resume", {}),
    ];
    for (const answer of await Promise.all(writes)) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({
        statusCode: 403,
        error: "INSUFFICIENT_SCOPE",
        message: "this token may only read; writing needs resume:write",
      });
      expect(answer.headers.get("www-authenticate")).toBe(
        'Bearer realm="resume", error="insufficient_scope", scope="resume:write"',
      );
    }
    const { rows } = await client.query(`SELECT name FROM resume.hobbies WHERE user_id = $1`, [userId]);
    expect(rows).toEqual([{ name: "Chess" }]);
    expect((await client.query(`SELECT 1 FROM resume.profiles WHERE user_id = $1`, [userId])).rowCount).toBe(
      0,
    );
  });

  it("with resume:read gets its 403 for a write whatever the body: malformed, not JSON, too large", async () => {
    const api = (await personWithToken(["resume:read"])).viaToken();
    const bodies: [string, Record<string, string>][] = [
      ["{not json", {}],
      ["name=x", { "content-type": "application/x-www-form-urlencoded" }],
      [JSON.stringify({ name: "x".repeat(100_000) }), {}],
    ];
    for (const [body, headers] of bodies) {
      const answer = await api.send("POST", "/me/hobbies", body, headers);
      expect([answer.status, answer.body]).toEqual([
        403,
        {
          statusCode: 403,
          error: "INSUFFICIENT_SCOPE",
          message: "this token may only read; writing needs resume:write",
        },
      ]);
    }
  });

  it("never manages tokens, whatever its scope", async () => {
    const { viaToken, created } = await personWithToken(["resume:write"]);
    const api = viaToken();
    const answers = await Promise.all([
      api.get("/me/tokens"),
      api.post("/me/tokens", { name: "more", scopes: ["resume:write"] }),
      api.get(`/me/tokens/${created.id}`),
      api.delete(`/me/tokens/${created.id}`),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.body.error).toBe("INSUFFICIENT_SCOPE");
    }
    expect((await api.get("/me/hobbies")).status).toBe(200);
  });

  it("gets its 403 on /me/tokens whatever the body: malformed, not JSON, too large", async () => {
    const { userId, viaToken } = await personWithToken(["resume:write"]);
    const api = viaToken();
    const bodies: [string, Record<string, string>][] = [
      ["{not json", {}],
      ["name=x", { "content-type": "text/plain" }],
      [JSON.stringify({ name: "x".repeat(100_000), scopes: ["resume:write"] }), {}],
    ];
    for (const [body, headers] of bodies) {
      const answer = await api.send("POST", "/me/tokens", body, headers);
      expect([answer.status, answer.body]).toEqual([
        403,
        {
          statusCode: 403,
          error: "INSUFFICIENT_SCOPE",
          message:
            "personal access tokens cannot manage tokens; sign in (the identity provider's token) to do that",
        },
      ]);
    }
    const { rows } = await client.query(`SELECT name FROM resume.access_tokens WHERE user_id = $1`, [userId]);
    expect(rows).toEqual([{ name: "script" }]);
  });

  it("is refused at once, on every instance, once revoked", async () => {
    const { viaToken, signedIn, created } = await personWithToken(["resume:write"]);
    expect((await viaToken(first).get("/me/skills")).status).toBe(200);
    expect((await viaToken(second).get("/me/resume")).status).toBe(200);
    const revoked = await signedIn.delete(`/me/tokens/${created.id}`);
    expect(revoked.body).toEqual({ statusCode: 200, message: `access token ${created.id} revoked` });
    for (const server of [first, second]) {
      for (const path of ["/me/skills", "/me/resume"]) {
        const answer = await viaToken(server).get(path);
        expect(answer.status).toBe(401);
        expect(answer.headers.get("www-authenticate")).toBe(
          'Bearer realm="resume", error="invalid_token", error_description="the personal access token is not known (mistyped or revoked)"',
        );
      }
    }
    expect((await signedIn.delete(`/me/tokens/${created.id}`)).status).toBe(404);
  });

  it("is refused once expired", async () => {
    const { viaToken, created } = await personWithToken(["resume:read"]);
    expect((await viaToken().get("/me/skills")).status).toBe(200);
    await client.query(
      `UPDATE resume.access_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [created.id],
    );
    const answer = await viaToken().get("/me/skills");
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe("the personal access token has expired");
  });

  it("refuses an unknown rsm_ token as it refuses a bad JWT", async () => {
    const api = httpClient(first.url, { authorization: `Bearer rsm_${"A".repeat(43)}` });
    const answer = await api.get("/me/profile");
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ statusCode: 401, error: "UNAUTHORIZED" });
  });

  it("marks last_used_at, at most once a minute", async () => {
    const { viaToken, signedIn, created } = await personWithToken(["resume:read"]);
    expect(await lastUsedAt(created.id)).toBeNull();
    await viaToken().get("/me/skills");
    const firstUse = await lastUsedAt(created.id);
    expect(firstUse).toBeInstanceOf(Date);
    await viaToken().get("/me/skills");
    expect(await lastUsedAt(created.id)).toEqual(firstUse);
    await client.query(
      `UPDATE resume.access_tokens SET last_used_at = last_used_at - interval '61 seconds' WHERE id = $1`,
      [created.id],
    );
    await viaToken().get("/me/skills");
    expect((await lastUsedAt(created.id))!.getTime()).toBeGreaterThan(firstUse!.getTime() - 1_000);
    const listed = await signedIn.get<{ items: Created[] }>("/me/tokens");
    expect(listed.body.items[0]!.last_used_at).toEqual(expect.any(String));
  });

  it("belongs to its owner: another person's token id is a 404", async () => {
    const owner = await personWithToken(["resume:read"]);
    const stranger: HttpClient = httpClient(first.url, { authorization: (await newUser()).authorization });
    expect((await stranger.get(`/me/tokens/${owner.created.id}`)).status).toBe(404);
    expect((await stranger.delete(`/me/tokens/${owner.created.id}`)).status).toBe(404);
    expect((await stranger.get("/me/tokens/not-a-uuid")).status).toBe(400);
    expect((await owner.viaToken().get("/me/skills")).status).toBe(200);
  });
});

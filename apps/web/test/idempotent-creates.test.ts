/**
 * The creates of /me with an Idempotency-Key (docs/resume-api.md, "Retry-safe
 * creates"): a retry gets the first answer, never a second entry, version or
 * link; the token create, whose answer is not kept, refuses a key.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { httpClient } from "../../../test/http-client.ts";
import { queryRows } from "../../../test/postgres-admin.ts";
import { startResumeApi } from "../../../test/resume-api.ts";
import { newUser } from "../../../test/tokens.ts";
import type { WebServer } from "../../../test/web-server.ts";

let web: WebServer;

beforeAll(async () => {
  web = await startResumeApi();
});

afterAll(async () => {
  await web?.stop();
});

async function client() {
  const user = await newUser();
  return { user, api: httpClient(web.url, { authorization: user.authorization }) };
}
const key = () => `key-${randomUUID()}`;
const withKey = (value: string) => ({ "idempotency-key": value });

describe("POST /me/{collection} with Idempotency-Key", () => {
  it("answers a repeat with the same body with the first 201, its body and Location, and Idempotent-Replayed", async () => {
    const { api } = await client();
    const k = key();
    const first = await api.post("/me/skills", { name: "Go", category: "language" }, withKey(k));
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // The same body as parsed JSON: key order and server fields sent back make no difference.
    const again = await api.post(
      "/me/skills",
      { category: "language", name: "Go", entity_type: "skill" },
      withKey(k),
    );
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect((await api.get<{ items: unknown[] }>("/me/skills")).body.items).toHaveLength(1);
  });

  it("refuses the key with another body, or on another collection, with 422 IDEMPOTENCY_KEY_REUSED", async () => {
    const { api } = await client();
    const k = key();
    expect((await api.post("/me/hobbies", { name: "Chess" }, withKey(k))).status).toBe(201);
    const otherBody = await api.post("/me/hobbies", { name: "Go" }, withKey(k));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual({
      statusCode: 422,
      error: "IDEMPOTENCY_KEY_REUSED",
      message: expect.stringContaining("another body"),
    });
    const otherCollection = await api.post("/me/skills", { name: "Chess", category: "tool" }, withKey(k));
    expect(otherCollection.status).toBe(422);
    expect(otherCollection.body).toMatchObject({ error: "IDEMPOTENCY_KEY_REUSED" });
    expect((await api.get<{ items: unknown[] }>("/me/hobbies")).body.items).toHaveLength(1);
    expect((await api.get<{ items: unknown[] }>("/me/skills")).body.items).toHaveLength(0);
  });

  it("scopes keys to their user: another person's create with the same key is their own", async () => {
    const [a, b] = [await client(), await client()];
    const k = key();
    const first = await a.api.post("/me/hobbies", { name: "Chess" }, withKey(k));
    const second = await b.api.post("/me/hobbies", { name: "Chess" }, withKey(k));
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect((second.body as { id: string }).id).not.toBe((first.body as { id: string }).id);
  });

  it("makes one entry of concurrent creates with one key, and all answer it", async () => {
    const { api } = await client();
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        api.post("/me/goals", { description: "Ship", category: "career" }, withKey(k)),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(11);
    expect((await api.get<{ items: unknown[] }>("/me/goals")).body.items).toHaveLength(1);
  });

  it("leaves the key unused when the create is refused (400, 409), so the same key creates once it can", async () => {
    const { user, api } = await client();
    const k = key();
    expect((await api.post("/me/hobbies", { name: "" }, withKey(k))).status).toBe(400);
    // A full collection (200 entries, written straight into the table): 409.
    await queryRows(
      inject("databaseUrl"),
      `INSERT INTO resume.certifications (id, user_id, name, issuing_organization, issue_date)
       SELECT gen_random_uuid(), '${user.userId}', 'c' || i, 'org', '2020-01-01' FROM generate_series(1, 200) i`,
    );
    const certification = { name: "CKA", issuing_organization: "CNCF", issue_date: "2024-01-01" };
    expect((await api.post("/me/certifications", certification, withKey(k))).status).toBe(409);
    const unused = await queryRows<{ n: number }>(
      inject("databaseUrl"),
      `SELECT count(*)::int AS n FROM resume.idempotency_keys WHERE user_id = '${user.userId}'`,
    );
    expect(unused).toEqual([{ n: 0 }]);
    expect((await api.post("/me/hobbies", { name: "Chess" }, withKey(k))).status).toBe(201);
  });

  it("answers 400 to a key that is empty, too long or not visible ASCII, and creates nothing", async () => {
    const { api } = await client();
    for (const bad of ["", "x".repeat(256), "has space"]) {
      const refused = await api.post("/me/hobbies", { name: "Chess" }, withKey(bad));
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body).toEqual({
        statusCode: 400,
        error: "BAD_REQUEST",
        message: "Idempotency-Key must be 1-255 visible ASCII characters",
      });
    }
    expect((await api.post("/me/hobbies", { name: "Chess" }, withKey("x".repeat(255)))).status).toBe(201);
    expect((await api.get<{ items: unknown[] }>("/me/hobbies")).body.items).toHaveLength(1);
  });

  it("keeps creates without a key as they were: each one a new entry", async () => {
    const { api } = await client();
    await api.post("/me/hobbies", { name: "Chess" });
    await api.post("/me/hobbies", { name: "Chess" });
    expect((await api.get<{ items: unknown[] }>("/me/hobbies")).body.items).toHaveLength(2);
  });
});

describe("POST /me/versions and /me/versions/{id}/links with Idempotency-Key", () => {
  const countOf = async (api: Awaited<ReturnType<typeof client>>["api"], path: string) =>
    (await api.get<{ items: unknown[] }>(path)).body.items.length;

  it("answers a version's create sent again with the first 201, never a second version", async () => {
    const { api } = await client();
    const k = key();
    const first = await api.post("/me/versions", { name: "Backend" }, withKey(k));
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await api.post("/me/versions", { name: "Backend" }, withKey(k));
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(await countOf(api, "/me/versions")).toBe(1);

    const otherBody = await api.post("/me/versions", { name: "Frontend" }, withKey(k));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual({
      statusCode: 422,
      error: "IDEMPOTENCY_KEY_REUSED",
      message: "this Idempotency-Key was used with another body; send a new key for a new version",
    });
    const otherRoute = await api.post("/me/hobbies", { name: "Chess" }, withKey(k));
    expect(otherRoute.body).toEqual({
      statusCode: 422,
      error: "IDEMPOTENCY_KEY_REUSED",
      message: "this Idempotency-Key was used on /me/versions; send a new key for a new entry",
    });
    expect(await countOf(api, "/me/versions")).toBe(1);
    expect(await countOf(api, "/me/hobbies")).toBe(0);
  });

  it("makes one version of concurrent creates with one key", async () => {
    const { api } = await client();
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api.post("/me/versions", { name: "Backend" }, withKey(k))),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(await countOf(api, "/me/versions")).toBe(1);
  });

  it("leaves the key unused when a version's create is refused (an id that is not the caller's)", async () => {
    const { api } = await client();
    const k = key();
    const foreign = { name: "Backend", include: { experience: [randomUUID()] } };
    expect((await api.post("/me/versions", foreign, withKey(k))).status).toBe(400);
    expect((await api.post("/me/versions", { name: "Backend" }, withKey(k))).status).toBe(201);
  });

  it("answers a link's create sent again with the same link, whatever the letter case of the version's id", async () => {
    const { api } = await client();
    const version = (await api.post<{ id: string }>("/me/versions", { name: "Backend" })).body;
    const k = key();
    const first = await api.post(`/me/versions/${version.id}/links`, { expires_in_days: 30 }, withKey(k));
    expect(first.status).toBe(201);
    const again = await api.post(
      `/me/versions/${version.id.toUpperCase()}/links`,
      { expires_in_days: 30 },
      withKey(k),
    );
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(await countOf(api, `/me/versions/${version.id}/links`)).toBe(1);

    const otherExpiry = await api.post(
      `/me/versions/${version.id}/links`,
      { expires_in_days: 7 },
      withKey(k),
    );
    expect(otherExpiry.status).toBe(422);
    expect(otherExpiry.body).toMatchObject({ error: "IDEMPOTENCY_KEY_REUSED" });
    const other = (await api.post<{ id: string }>("/me/versions", { name: "Frontend" })).body;
    const otherVersion = await api.post(
      `/me/versions/${other.id}/links`,
      { expires_in_days: 30 },
      withKey(k),
    );
    expect(otherVersion.body).toEqual({
      statusCode: 422,
      error: "IDEMPOTENCY_KEY_REUSED",
      message: `this Idempotency-Key was used on /me/versions/${version.id}/links; send a new key for a new link`,
    });
    expect(await countOf(api, `/me/versions/${other.id}/links`)).toBe(0);
  });

  it("answers 400 to a key that is not one, on both routes, and makes nothing", async () => {
    const { api } = await client();
    const version = (await api.post<{ id: string }>("/me/versions", { name: "Backend" })).body;
    const creates: [string, object][] = [
      ["/me/versions", { name: "Other" }],
      [`/me/versions/${version.id}/links`, { expires_in_days: 7 }],
    ];
    for (const [path, body] of creates) {
      for (const bad of ["", "x".repeat(256), "has space"]) {
        const refused = await api.post(path, body, withKey(bad));
        expect(refused.status, `${path} ${JSON.stringify(bad)}`).toBe(400);
        expect(refused.body).toEqual({
          statusCode: 400,
          error: "BAD_REQUEST",
          message: "Idempotency-Key must be 1-255 visible ASCII characters",
        });
      }
    }
    expect(await countOf(api, "/me/versions")).toBe(1);
    expect(await countOf(api, `/me/versions/${version.id}/links`)).toBe(0);
  });

  it("leaves the key unused when a link's create is refused (a version that is not there)", async () => {
    const { api } = await client();
    const k = key();
    expect((await api.post(`/me/versions/${randomUUID()}/links`, {}, withKey(k))).status).toBe(404);
    const version = (await api.post<{ id: string }>("/me/versions", { name: "Backend" })).body;
    expect((await api.post(`/me/versions/${version.id}/links`, {}, withKey(k))).status).toBe(201);
  });
});

describe("POST /me/tokens with Idempotency-Key", () => {
  it("refuses the key with 400 and makes no token: the token's answer cannot be given again", async () => {
    const { api } = await client();
    const token = { name: "CI", scopes: ["resume:read"] };
    const refused = await api.post("/me/tokens", token, withKey(key()));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      statusCode: 400,
      error: "BAD_REQUEST",
      message: expect.stringMatching(/^POST \/me\/tokens takes no Idempotency-Key/),
    });
    expect((await api.get<{ items: unknown[] }>("/me/tokens")).body.items).toHaveLength(0);
    expect((await api.post("/me/tokens", token)).status).toBe(201);
  });
});

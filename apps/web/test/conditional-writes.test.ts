/**
 * Conditional writes (docs/resume-api.md, "Conditional writes"): a client
 * sends back the ETag it read in If-Match, and a write over a version it has
 * not seen is a 412 that changes nothing: two tabs, or two programs, no longer
 * overwrite each other unseen.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { httpClient, type HttpClient } from "../../../test/http-client.ts";
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

async function client(): Promise<{ userId: string; api: HttpClient }> {
  const user = await newUser();
  return { userId: user.userId, api: httpClient(web.url, { authorization: user.authorization }) };
}

const profile = (name: string) => ({ name, links: {} });
const tagOf = (body: unknown) => `"${(body as { updated_at: string }).updated_at}"`;
const ifMatch = (tag: string) => ({ "if-match": tag });

function expectPreconditionFailed(result: { status: number; body: unknown }) {
  expect(result.status).toBe(412);
  expect(result.body).toEqual({
    statusCode: 412,
    error: "PRECONDITION_FAILED",
    message: expect.stringMatching(/read it again|create it first/),
  });
}

describe("PUT /me/profile with preconditions", () => {
  it("answers each read and write with the ETag of its version: updated_at in quotes", async () => {
    const { api } = await client();
    const written = await api.put("/me/profile", profile("Ada"));
    expect(written.status).toBe(200);
    expect(written.headers.get("etag")).toBe(tagOf(written.body));
    const read = await api.get("/me/profile");
    expect(read.headers.get("etag")).toBe(written.headers.get("etag"));
  });

  it("writes over the version it names, and refuses the second of two tabs that read the same one with 412, keeping the first's", async () => {
    const { api } = await client();
    const read = await api.put("/me/profile", profile("Ada"));
    const tag = read.headers.get("etag")!;

    const first = await api.put("/me/profile", profile("Ada Lovelace"), ifMatch(tag));
    expect(first.status).toBe(200);
    expect(first.headers.get("etag")).not.toBe(tag);

    const second = await api.put("/me/profile", profile("Augusta Ada King"), ifMatch(tag));
    expectPreconditionFailed(second);
    expect((second.body as { message: string }).message).toContain(tagOf(first.body));
    expect((await api.get("/me/profile")).body).toMatchObject({ name: "Ada Lovelace" });
    // With the version it now reads, the second writes.
    expect(
      (await api.put("/me/profile", profile("Augusta Ada King"), ifMatch(tagOf(first.body)))).status,
    ).toBe(200);
  });

  it("lets exactly one of concurrent writes naming the same version through", async () => {
    const { api } = await client();
    const tag = (await api.put("/me/profile", profile("v0"))).headers.get("etag")!;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.put("/me/profile", profile(`v${i + 1}`), ifMatch(tag))),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const winner = results.find((r) => r.status === 200)!.body as { name: string };
    expect((await api.get("/me/profile")).body).toMatchObject({ name: winner.name });
  });

  it("creates with If-None-Match: * only when there is no profile yet", async () => {
    const { api } = await client();
    expect((await api.put("/me/profile", profile("First"), { "if-none-match": "*" })).status).toBe(200);
    expectPreconditionFailed(await api.put("/me/profile", profile("Second"), { "if-none-match": "*" }));
    expect((await api.get("/me/profile")).body).toMatchObject({ name: "First" });
  });

  it("creates one profile of concurrent If-None-Match: * writes", async () => {
    const { api } = await client();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.put("/me/profile", profile(`tab ${i}`), { "if-none-match": "*" }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412, 412]);
  });

  it("writes with If-Match: * only over a profile that exists, and never with an ETag of none", async () => {
    const { api } = await client();
    expectPreconditionFailed(await api.put("/me/profile", profile("Nobody"), { "if-match": "*" }));
    expectPreconditionFailed(
      await api.put("/me/profile", profile("Nobody"), ifMatch('"2026-01-01T00:00:00.000Z"')),
    );
    expect((await api.get("/me/profile")).status).toBe(404);
    await api.put("/me/profile", profile("Someone"));
    expect((await api.put("/me/profile", profile("Someone else"), { "if-match": "*" })).status).toBe(200);
  });

  it("compares strongly: a weak ETag never matches, and any of a list may", async () => {
    const { api } = await client();
    const tag = (await api.put("/me/profile", profile("Ada"))).headers.get("etag")!;
    expectPreconditionFailed(await api.put("/me/profile", profile("Weak"), ifMatch(`W/${tag}`)));
    const listed = await api.put("/me/profile", profile("Listed"), ifMatch(`"other", "a,b", ${tag}`));
    expect(listed.status).toBe(200);
  });

  it("honours If-Unmodified-Since, to the second", async () => {
    const { api } = await client();
    const written = await api.put("/me/profile", profile("Ada"));
    const at = Date.parse((written.body as { updated_at: string }).updated_at);
    const before = new Date(at - 2000).toUTCString();
    expectPreconditionFailed(
      await api.put("/me/profile", profile("Late"), { "if-unmodified-since": before }),
    );
    const after = new Date(at + 2000).toUTCString();
    expect((await api.put("/me/profile", profile("In time"), { "if-unmodified-since": after })).status).toBe(
      200,
    );
  });

  it("refuses an If-Match that is not a list of entity-tags with 400, writing nothing", async () => {
    const { api } = await client();
    await api.put("/me/profile", profile("Ada"));
    for (const value of ["2026-01-01T00:00:00.000Z", '"unterminated', '"a""b"', ","]) {
      const refused = await api.put("/me/profile", profile("Changed"), ifMatch(value));
      expect(refused.status, value).toBe(400);
      expect(refused.body).toEqual({
        statusCode: 400,
        error: "BAD_REQUEST",
        message: expect.stringContaining("If-Match must be * or a list of entity-tags"),
      });
    }
    expect((await api.get("/me/profile")).body).toMatchObject({ name: "Ada" });
  });

  it("moves updated_at on by at least 1 ms a write, even past a clock that went back", async () => {
    const { api, userId } = await client();
    await api.put("/me/profile", profile("Ada"));
    const ahead = "2099-01-01T00:00:00.000Z";
    await queryRows(
      inject("databaseUrl"),
      `UPDATE resume.profiles SET updated_at = '${ahead}' WHERE user_id = '${userId}'`,
    );
    const written = await api.put("/me/profile", profile("Ada Lovelace"), ifMatch(`"${ahead}"`));
    expect(written.status).toBe(200);
    expect((written.body as { updated_at: string }).updated_at).toBe("2099-01-01T00:00:00.001Z");
  });
});

describe("PUT and DELETE /me/{collection}/{id} with preconditions", () => {
  it("takes the ETag from a list's updated_at, refuses a stale one with 412, and keeps the entry as it was", async () => {
    const { api } = await client();
    const created = await api.post("/me/skills", { name: "Go", category: "language" });
    expect(created.headers.get("etag")).toBe(tagOf(created.body));
    const { id } = created.body as { id: string };
    const listed = (await api.get<{ items: { updated_at: string }[] }>("/me/skills")).body.items[0]!;
    expect((await api.get(`/me/skills/${id}`)).headers.get("etag")).toBe(tagOf(listed));

    const first = await api.put(`/me/skills/${id}`, { name: "Go", category: "tool" }, ifMatch(tagOf(listed)));
    expect(first.status).toBe(200);
    expect(first.headers.get("etag")).toBe(tagOf(first.body));
    const stale = await api.put(
      `/me/skills/${id}`,
      { name: "Rust", category: "language" },
      ifMatch(tagOf(listed)),
    );
    expectPreconditionFailed(stale);
    expect((await api.get(`/me/skills/${id}`)).body).toMatchObject({ name: "Go", category: "tool" });

    expectPreconditionFailed(await api.delete(`/me/skills/${id}`, ifMatch(tagOf(listed))));
    expect((await api.get(`/me/skills/${id}`)).status).toBe(200);
    expect((await api.delete(`/me/skills/${id}`, ifMatch(tagOf(first.body)))).status).toBe(200);
    expect((await api.get(`/me/skills/${id}`)).status).toBe(404);
  });

  it("answers 404 for an entry that is not there, whatever the precondition", async () => {
    const { api } = await client();
    const missing = "00000000-0000-4000-8000-000000000000";
    const tag = '"2026-01-01T00:00:00.000Z"';
    expect((await api.put(`/me/hobbies/${missing}`, { name: "Chess" }, ifMatch(tag))).status).toBe(404);
    expect((await api.delete(`/me/hobbies/${missing}`, ifMatch(tag))).status).toBe(404);
  });

  it("checks the precondition before a goal's status move: stale is 412, current with a move not allowed is 409", async () => {
    const { api } = await client();
    const created = await api.post("/me/goals", {
      description: "Ship",
      category: "career",
      status: "active",
    });
    const { id } = created.body as { id: string };
    const achieved = { description: "Ship", category: "career", status: "achieved" };
    const done = await api.put(`/me/goals/${id}`, achieved, ifMatch(tagOf(created.body)));
    expect(done.status).toBe(200);
    // achieved -> abandoned is not a move, and the version is stale: the precondition answers.
    const abandoned = { description: "Ship", category: "career", status: "abandoned" };
    expectPreconditionFailed(await api.put(`/me/goals/${id}`, abandoned, ifMatch(tagOf(created.body))));
    const refused = await api.put(`/me/goals/${id}`, abandoned, ifMatch(tagOf(done.body)));
    expect(refused.status).toBe(409);
    expect((await api.get(`/me/goals/${id}`)).body).toMatchObject({ status: "achieved" });
  });
});

describe("PUT and DELETE /me/versions/{id} with preconditions", () => {
  const version = (name: string, more: Record<string, unknown> = {}) => ({ name, ...more });

  async function made(api: HttpClient, name = "Backend roles") {
    const created = await api.post("/me/versions", version(name));
    expect(created.status).toBe(201);
    return { id: (created.body as { id: string }).id, created };
  }

  it("answers the create, each read and each replace with the ETag of its version: updated_at in quotes", async () => {
    const { api } = await client();
    const { id, created } = await made(api);
    expect(created.headers.get("etag")).toBe(tagOf(created.body));
    expect((await api.get(`/me/versions/${id}`)).headers.get("etag")).toBe(tagOf(created.body));
    const listed = (await api.get<{ items: { updated_at: string }[] }>("/me/versions")).body.items[0]!;
    expect(tagOf(listed)).toBe(tagOf(created.body));

    const replaced = await api.put(`/me/versions/${id}`, version("Platform roles"), ifMatch(tagOf(listed)));
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get("etag")).toBe(tagOf(replaced.body));
    expect(replaced.headers.get("etag")).not.toBe(tagOf(created.body));
    expect((await api.get(`/me/versions/${id}`)).headers.get("etag")).toBe(tagOf(replaced.body));
  });

  it("refuses the second of two tabs that read the same version with 412 naming the version there now, for a replace and a delete", async () => {
    const { api } = await client();
    const { id, created } = await made(api);
    const read = tagOf(created.body);

    const first = await api.put(`/me/versions/${id}`, version("First tab"), ifMatch(read));
    expect(first.status).toBe(200);
    const second = await api.put(
      `/me/versions/${id}`,
      version("Second tab", { hide_email: true }),
      ifMatch(read),
    );
    expectPreconditionFailed(second);
    expect((second.body as { message: string }).message).toContain(tagOf(first.body));
    expect((await api.get(`/me/versions/${id}`)).body).toMatchObject({
      name: "First tab",
      hide_email: false,
    });

    expectPreconditionFailed(await api.delete(`/me/versions/${id}`, ifMatch(read)));
    expect((await api.get(`/me/versions/${id}`)).status).toBe(200);
    expect((await api.delete(`/me/versions/${id}`, ifMatch(tagOf(first.body)))).status).toBe(200);
    expect((await api.get(`/me/versions/${id}`)).status).toBe(404);
  });

  it("lets exactly one of concurrent replaces naming the same version through", async () => {
    const { api } = await client();
    const { id, created } = await made(api);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.put(`/me/versions/${id}`, version(`tab ${i}`), ifMatch(tagOf(created.body))),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const winner = results.find((r) => r.status === 200)!.body as { name: string };
    expect((await api.get(`/me/versions/${id}`)).body).toMatchObject({ name: winner.name });
  });

  it("answers 400 for the body and 404 for a version that is not there before the precondition", async () => {
    const { api } = await client();
    const { id } = await made(api);
    const stale = ifMatch('"2026-01-01T00:00:00.000Z"');
    const foreign = { include: { hobbies: ["00000000-0000-4000-8000-000000000000"] } };
    const refused = await api.put(`/me/versions/${id}`, version("Named", foreign), stale);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ issues: [{ path: "include.hobbies.0" }] });
    expect((await api.put(`/me/versions/${id}`, version(""), stale)).status).toBe(400);

    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await api.put(`/me/versions/${missing}`, version("Gone"), stale)).status).toBe(404);
    expect((await api.delete(`/me/versions/${missing}`, stale)).status).toBe(404);
    expect((await api.delete(`/me/versions/${missing}`, { "if-match": "*" })).status).toBe(404);
  });

  it("honours If-Unmodified-Since, to the second", async () => {
    const { api } = await client();
    const { id, created } = await made(api);
    const at = Date.parse((created.body as { updated_at: string }).updated_at);
    const before = { "if-unmodified-since": new Date(at - 2000).toUTCString() };
    expectPreconditionFailed(await api.put(`/me/versions/${id}`, version("Late"), before));
    expectPreconditionFailed(await api.delete(`/me/versions/${id}`, before));
    const after = { "if-unmodified-since": new Date(at + 2000).toUTCString() };
    expect((await api.put(`/me/versions/${id}`, version("In time"), after)).status).toBe(200);
  });

  it("refuses an If-Match that is not a list of entity-tags with 400, writing nothing", async () => {
    const { api } = await client();
    const { id } = await made(api);
    for (const value of ["2026-01-01T00:00:00.000Z", '"unterminated', '"a""b"', ","]) {
      for (const refused of [
        await api.put(`/me/versions/${id}`, version("Changed"), ifMatch(value)),
        await api.delete(`/me/versions/${id}`, ifMatch(value)),
      ]) {
        expect(refused.status, value).toBe(400);
        expect(refused.body).toEqual({
          statusCode: 400,
          error: "BAD_REQUEST",
          message: expect.stringContaining("If-Match must be * or a list of entity-tags"),
        });
      }
    }
    expect((await api.get(`/me/versions/${id}`)).body).toMatchObject({ name: "Backend roles" });
  });

  it("moves updated_at on by at least 1 ms a write, even past a clock that went back", async () => {
    const { api, userId } = await client();
    const { id } = await made(api);
    const ahead = "2099-01-01T00:00:00.000Z";
    await queryRows(
      inject("databaseUrl"),
      `UPDATE resume.tailored_versions SET updated_at = '${ahead}' WHERE id = '${id}' AND user_id = '${userId}'`,
    );
    // Unconditional, as a write of another tab that read nothing first.
    const written = await api.put(`/me/versions/${id}`, version("Renamed"));
    expect(written.status).toBe(200);
    expect((written.body as { updated_at: string }).updated_at).toBe("2099-01-01T00:00:00.001Z");
    expectPreconditionFailed(await api.put(`/me/versions/${id}`, version("Stale"), ifMatch(`"${ahead}"`)));
  });
});

describe("preconditions on writes that do not check them", () => {
  it("refuses them with 400 rather than writing unchecked", async () => {
    const { api } = await client();
    const create = await api.post("/me/hobbies", { name: "Chess" }, ifMatch('"x"'));
    expect(create.status).toBe(400);
    expect(create.body).toMatchObject({ message: expect.stringContaining("does not check If-Match") });
    const imported = await api.put("/me/resume", { profile: profile("Ada") }, { "if-none-match": "*" });
    expect(imported.status).toBe(400);
    expect((await api.get<{ items: unknown[] }>("/me/hobbies")).body.items).toHaveLength(0);
    expect((await api.get("/me/profile")).status).toBe(404);
  });

  it("leaves reads alone: a GET with If-None-Match is answered in full", async () => {
    const { api } = await client();
    const tag = (await api.put("/me/profile", profile("Ada"))).headers.get("etag")!;
    const read = await api.get("/me/profile", { "if-none-match": tag });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ name: "Ada" });
  });
});

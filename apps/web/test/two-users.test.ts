import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS, type ResumeAppRouter } from "@app/resume";
import { httpClient, type HttpClient } from "../../../test/http-client.ts";
import { COMPLETE, MINIMAL } from "../../../test/resume-fixtures.ts";
import { newUser } from "../../../test/tokens.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

/** Nothing of one person can be read, replaced or deleted by another, over REST or tRPC. */
let web: WebServer;
let alice: { api: HttpClient; authorization: string };
let bob: { api: HttpClient; authorization: string };
const aliceIds: Record<string, string> = {};

beforeAll(async () => {
  web = await startWebServer();
  const [a, b] = await Promise.all([newUser(), newUser()]);
  alice = { api: httpClient(web.url, { authorization: a.authorization }), authorization: a.authorization };
  bob = { api: httpClient(web.url, { authorization: b.authorization }), authorization: b.authorization };
  await alice.api.put("/me/profile", { name: "Alice" });
  for (const c of COLLECTIONS)
    aliceIds[c.name] = (await alice.api.post(c.path, COMPLETE[c.name])).body.id as string;
});

afterAll(async () => {
  await web?.stop();
});

function trpcAs(authorization: string) {
  return createTRPCClient<ResumeAppRouter>({
    links: [httpLink({ url: `${web.url}/api/trpc`, headers: { authorization } })],
  });
}

async function aliceSnapshot() {
  return (await alice.api.get("/me/resume")).body;
}

describe("two users over REST", () => {
  it("B gets 404 for each of A's entries on get, replace and delete, and A's data is unchanged", async () => {
    const before = await aliceSnapshot();
    for (const c of COLLECTIONS) {
      const path = `${c.path}/${aliceIds[c.name]}`;
      expect((await bob.api.get(path)).status).toBe(404);
      expect((await bob.api.put(path, MINIMAL[c.name])).status).toBe(404);
      expect((await bob.api.delete(path)).status).toBe(404);
      expect((await bob.api.get(c.path)).body).toEqual({ items: [] });
    }
    expect((await bob.api.get("/me/profile")).status).toBe(404);
    expect((await bob.api.get("/me/resume")).body).toMatchObject({
      profile: null,
      experience: [],
      goals: [],
    });
    expect(await aliceSnapshot()).toEqual(before);
  });

  it("B's 404 for A's id is the same answer as for an id nobody has", async () => {
    const path = `/me/skills/${aliceIds.skills}`;
    const unknown = await bob.api.get("/me/skills/6b0c3c4e-4d5e-4f60-8a1b-2c3d4e5f6a7b");
    expect((await bob.api.get(path)).body).toEqual(unknown.body);
  });
});

describe("two users over tRPC", () => {
  it("B's tRPC calls on A's ids fail with NOT_FOUND and change nothing", async () => {
    const before = await aliceSnapshot();
    const asBob = trpcAs(bob.authorization);
    for (const c of COLLECTIONS) {
      const procedures = asBob[c.name];
      const id = aliceIds[c.name]!;
      const attempts = [
        () => procedures.get.query({ id }),
        () => procedures.replace.mutate({ id, ...MINIMAL[c.name] } as never),
        () => procedures.delete.mutate({ id }),
      ];
      for (const attempt of attempts) {
        const error = await attempt().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TRPCClientError);
        expect((error as TRPCClientError<ResumeAppRouter>).data?.httpStatus).toBe(404);
      }
      expect(await procedures.list.query()).toEqual({ items: [] });
    }
    expect(await aliceSnapshot()).toEqual(before);
  });

  it("A reads her own data over tRPC exactly as over REST", async () => {
    const asAlice = trpcAs(alice.authorization);
    expect(await asAlice.resume.get.query({ format: "json" })).toEqual(await aliceSnapshot());
    expect(await asAlice.experience.get.query({ id: aliceIds.experience! })).toEqual(
      (await alice.api.get(`/me/experience/${aliceIds.experience}`)).body,
    );
  });

  it("refuses tRPC calls without a token", async () => {
    const error = await createTRPCClient<ResumeAppRouter>({
      links: [httpLink({ url: `${web.url}/api/trpc` })],
    })
      .profile.get.query()
      .catch((e: unknown) => e);
    expect((error as TRPCClientError<ResumeAppRouter>).data?.httpStatus).toBe(401);
  });
});

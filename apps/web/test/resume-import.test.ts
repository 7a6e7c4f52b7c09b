import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS, LIMITS } from "@app/resume";
import { httpClient, type HttpClient } from "../../../test/http-client.ts";
import { jsonResumeErrors, SAMPLE_RESUMES } from "../../../test/json-resume-validators.ts";
import { startTwoResumeApis } from "../../../test/resume-api.ts";
import { COMPLETE, MINIMAL } from "../../../test/resume-fixtures.ts";
import { newUser } from "../../../test/tokens.ts";
import type { WebServer } from "../../../test/web-server.ts";

/** Two instances of the API on one database, each with its own whole-resume cache. */
let first: WebServer;
let second: WebServer;
let client: pg.Client;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ first, second, sql: client, stop } = await startTwoResumeApis());
});

afterAll(() => stop?.());

async function signedIn(server: WebServer = first) {
  const { userId, authorization } = await newUser();
  return { userId, authorization, api: httpClient(server.url, { authorization }) };
}

/** A resume with a complete and a minimal entry in every collection, written through the single routes. */
async function fillResume(api: HttpClient) {
  await api.put("/me/profile", {
    name: "Grace Hopper",
    headline: "Rear Admiral",
    summary: "Invented the first compiler.",
    location: "Arlington, VA",
    email: "grace@example.org",
    links: { github: "https://github.com/grace" },
    goals_summary: "Teach everyone to program.",
  });
  for (const c of COLLECTIONS) {
    expect((await api.post(c.path, COMPLETE[c.name])).status).toBe(201);
    expect((await api.post(c.path, MINIMAL[c.name])).status).toBe(201);
  }
}

/** Every row of the person's resume as SQL sees it, without ids and times, in a fixed order. */
async function storedRows(userId: string) {
  const tables = ["profiles", "experiences", "educations", "skills", "certifications", "hobbies", "goals"];
  const rows: Record<string, unknown[]> = {};
  for (const table of tables) {
    const result = await client.query(`SELECT * FROM resume.${table} WHERE user_id = $1`, [userId]);
    rows[table] = result.rows
      .map(
        ({ id, seq, created_at, updated_at, ...fields }) => (void [id, seq, created_at, updated_at], fields),
      )
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return rows;
}

/** A whole resume in the service's JSON with every field at its limit and a full skills collection. */
function resumeAtLimits() {
  const text = (n: number) => "x".repeat(n);
  const url = (n: number) => `https://example.com/${"a".repeat(n - 20)}`;
  const items = Array.from({ length: LIMITS.listItems }, (_, i) => `${i}`.padEnd(LIMITS.listItemLength, "y"));
  return {
    profile: {
      name: text(LIMITS.nameLength),
      headline: text(LIMITS.nameLength),
      summary: text(LIMITS.textLength),
      location: text(LIMITS.nameLength),
      email: "grace@example.org",
      links: Object.fromEntries(
        Array.from({ length: LIMITS.links }, (_, i) => [`${i}`.padEnd(50, "n"), url(LIMITS.urlLength)]),
      ),
      goals_summary: text(LIMITS.textLength),
    },
    experience: [
      {
        organization: text(LIMITS.nameLength),
        title: text(LIMITS.nameLength),
        location: text(LIMITS.nameLength),
        employment_type: "internship",
        start_date: "2001-01-01",
        end_date: "2002-12-31",
        responsibilities: items,
        accomplishments: items,
      },
    ],
    education: [
      {
        institution: text(LIMITS.nameLength),
        degree: text(LIMITS.nameLength),
        field_of_study: text(LIMITS.nameLength),
        location: text(LIMITS.nameLength),
        start_date: "1990-01-01",
        end_date: "1994-06-30",
        gpa: text(LIMITS.nameLength),
        honors: text(LIMITS.textLength),
        activities: text(LIMITS.textLength),
      },
    ],
    skills: Array.from({ length: LIMITS.entriesPerCollection }, (_, i) => ({
      name: `skill ${i}`.padEnd(LIMITS.nameLength, "s"),
      category: "framework",
      proficiency: "beginner",
      years_experience: 100,
    })),
    certifications: [
      {
        name: text(LIMITS.nameLength),
        issuing_organization: text(LIMITS.nameLength),
        issue_date: "2020-02-29",
        expiration_date: "2030-02-28",
        credential_id: text(LIMITS.nameLength),
        credential_url: url(LIMITS.urlLength),
        type: "personal",
      },
    ],
    hobbies: [{ name: text(LIMITS.nameLength), description: text(LIMITS.textLength) }],
    goals: [
      {
        description: text(LIMITS.textLength),
        category: "career",
        target_date: "2099-12-31",
        status: "abandoned",
      },
    ],
  };
}

describe("PUT /me/resume", () => {
  it("export -> import -> export of JSON Resume is identical, and valid against both schema packages", async () => {
    const { api } = await signedIn();
    await fillResume(api);
    const exported = await api.get("/me/resume?format=jsonresume");
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await jsonResumeErrors(exported.body)).toEqual({ published: null, current: null });

    const imported = await api.put("/me/resume?format=jsonresume", exported.body);
    expect(imported.status).toBe(200);
    expect(imported.body.ignored).toEqual([]);
    expect(imported.body.resume).toEqual((await api.get("/me/resume")).body);
    expect((await api.get("/me/resume?format=jsonresume")).body).toEqual(exported.body);
    // The query starts at the first "?": a second one belongs to a value.
    const again = await api.put("/me/resume?note=why?&format=jsonresume", exported.body);
    expect(again.status).toBe(200);
    expect(again.body.ignored).toEqual([]);
  });

  it("imports the service's own JSON as GET answers it: the same resume, new ids", async () => {
    const { api, userId } = await signedIn();
    await fillResume(api);
    const before = await storedRows(userId);
    const resume = (await api.get("/me/resume")).body;
    const imported = await api.put("/me/resume", resume);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ ignored: [] });
    expect(await storedRows(userId)).toEqual(before);
    const experienceIds = (r: Record<string, unknown>) => (r.experience as { id: string }[]).map((e) => e.id);
    expect(experienceIds(imported.body.resume as Record<string, unknown>)).not.toEqual(experienceIds(resume));
    expect((await api.put("/me/resume?format=json", resume)).status).toBe(200);
  });

  it("replaces everything: what the document leaves out is gone", async () => {
    const { api, userId } = await signedIn();
    await fillResume(api);
    const imported = await api.put("/me/resume?format=jsonresume", {
      skills: [{ name: "Go", level: "Master" }],
    });
    expect(imported.status).toBe(200);
    const rows = await storedRows(userId);
    expect(rows.profiles).toEqual([]);
    expect(rows.experiences).toEqual([]);
    expect(rows.skills).toEqual([
      { user_id: userId, name: "Go", category: "tool", proficiency: "expert", years_experience: null },
    ]);
    expect((await api.get("/me/profile")).status).toBe(404);
  });

  it("imports both packages' sample resumes, lists what it did not store, and exports them valid", async () => {
    for (const sample of Object.values(SAMPLE_RESUMES)) {
      const { api } = await signedIn();
      const imported = await api.put("/me/resume?format=jsonresume", sample);
      expect(imported.status).toBe(200);
      expect(imported.body.ignored).toEqual(
        expect.arrayContaining(["volunteer", "projects", "basics.phone"]),
      );
      expect((imported.body.resume as { profile: { name: string } }).profile.name).toBe("Richard Hendriks");
      const exported = await api.get("/me/resume?format=jsonresume");
      expect(await jsonResumeErrors(exported.body)).toEqual({ published: null, current: null });
    }
  });

  it("keeps the order of entries with equal dates", async () => {
    const { api } = await signedIn();
    const work = ["first", "second", "third"].map((name) => ({
      name,
      position: "Dev",
      startDate: "2020-01",
    }));
    await api.put("/me/resume?format=jsonresume", { work });
    const exported = await api.get("/me/resume?format=jsonresume");
    expect((exported.body.work as { name: string }[]).map((w) => w.name)).toEqual([
      "first",
      "second",
      "third",
    ]);
  });

  it("imports a document with every field at its limit, in either format", async () => {
    const { api } = await signedIn();
    const native = resumeAtLimits();
    const imported = await api.put("/me/resume", native);
    expect(imported.status).toBe(200);
    const exported = await api.get("/me/resume?format=jsonresume");
    expect(await jsonResumeErrors(exported.body)).toEqual({ published: null, current: null });
    const again = await api.put("/me/resume?format=jsonresume", exported.body);
    expect(again.status).toBe(200);
    expect((await api.get("/me/resume?format=jsonresume")).body).toEqual(exported.body);
  });

  it("refuses a document over a limit and changes nothing", async () => {
    const { api, userId } = await signedIn();
    await fillResume(api);
    const before = await storedRows(userId);
    const over = resumeAtLimits();
    over.hobbies[0]!.description += "x";
    const native = await api.put("/me/resume", over);
    expect(native.status).toBe(400);
    expect(native.body.issues).toEqual([
      { path: "hobbies[0].description", message: `must be at most ${LIMITS.textLength} characters` },
    ]);

    const exported = (await api.get("/me/resume?format=jsonresume")).body;
    const tooMany = {
      ...exported,
      work: Array.from({ length: 201 }, () => ({ name: "A", position: "B", startDate: "2020" })),
    };
    const refused = await api.put("/me/resume?format=jsonresume", tooMany);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      statusCode: 400,
      error: "BAD_REQUEST",
      message: "invalid request: work[200]: at most 200 experience entries",
      issues: [{ path: "work[200]", message: "at most 200 experience entries" }],
    });
    expect(await storedRows(userId)).toEqual(before);
  });

  it("answers the documented 4xx for a bad request, never a 5xx", async () => {
    const { api, userId } = await signedIn();
    await fillResume(api);
    const before = await storedRows(userId);
    const big = { basics: { name: "A", summary: "x".repeat(LIMITS.importBodyBytes) } };
    expect((await api.put("/me/resume?format=jsonresume", big)).status).toBe(413);
    expect((await api.send("PUT", "/me/resume", "name=x", { "content-type": "text/plain" })).status).toBe(
      415,
    );
    const malformed = await api.put("/me/resume", "{");
    expect(malformed.body).toMatchObject({ statusCode: 400, message: "the body is not valid JSON" });
    const format = await api.put("/me/resume?format=xml", {});
    expect(format.status).toBe(400);
    expect(format.body.issues).toEqual([{ path: "format", message: expect.stringContaining("jsonresume") }]);
    expect((await api.put("/me/resume", [])).body.issues).toEqual([
      { path: "", message: expect.stringContaining("object") },
    ]);
    expect((await api.put("/me/resume?format=jsonresume", "null")).status).toBe(400);
    const anonymous = httpClient(first.url);
    expect((await anonymous.put("/me/resume", {})).status).toBe(401);
    expect(await storedRows(userId)).toEqual(before);
  });

  it("takes a 1 MiB body over the editor's tRPC endpoint for the import only", async () => {
    const { authorization } = await newUser();
    const post = (procedure: string, input: unknown) =>
      fetch(`${first.url}/api/trpc/${procedure}`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify(input),
      });
    const half = "x".repeat(LIMITS.importBodyBytes / 2);
    // Past the other procedures' limit (four single bodies), within the import's: refused on its merits (400).
    expect((await post("resume.replace", { document: { profile: { name: half } } })).status).toBe(400);
    expect((await post("skills.create", { name: half, category: "tool" })).status).toBe(413);
  });

  it("is read at once by another instance that kept the old resume in memory", async () => {
    const { authorization, api } = await signedIn(first);
    await fillResume(api);
    const other = httpClient(second.url, { authorization });
    const old = await other.get("/me/resume?format=jsonresume");
    expect((await other.get("/me/resume?format=jsonresume")).body).toEqual(old.body);
    await api.put("/me/resume?format=jsonresume", { basics: { name: "Someone Else" } });
    expect((await other.get("/me/resume?format=jsonresume")).body).toEqual({
      basics: { name: "Someone Else", profiles: [] },
      work: [],
      education: [],
      skills: [],
      certificates: [],
      interests: [],
      meta: { "x-resume": { goals: [] } },
    });
  });

  it("runs beside creates, replaces and profile writes of the same person without a 5xx", async () => {
    const { api, userId } = await signedIn();
    await fillResume(api);
    const document = (await api.get("/me/resume?format=jsonresume")).body;
    const failures: unknown[] = [];
    for (let round = 0; round < 10; round += 1) {
      const { body } = await api.get<Record<string, Record<string, unknown>[]>>("/me/resume");
      // Each single write locks its row, then the person's version row; the import must not wait the other way round.
      const replaces = COLLECTIONS.flatMap((c) =>
        body[c.name]!.map(({ id, entity_type, pk, sk, created_at, updated_at, ...fields }) =>
          api.put(`${c.path}/${String(id)}`, (void [entity_type, pk, sk, created_at, updated_at], fields)),
        ),
      );
      const answers = await Promise.all([
        api.put("/me/resume?format=jsonresume", document),
        ...replaces,
        api.post("/me/hobbies", { name: `hobby ${round}` }),
        api.put("/me/profile", { name: `name ${round}` }),
      ]);
      failures.push(...answers.filter((answer) => answer.status >= 500).map((answer) => answer.body));
    }
    expect(failures).toEqual([]);
    const rows = await storedRows(userId);
    expect(rows.profiles).toHaveLength(1);
    expect(rows.experiences).toHaveLength(2);
  });
});

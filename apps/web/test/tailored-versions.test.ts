/**
 * Tailored versions (docs/resume-api.md, "Tailored versions"): the routes,
 * their rules one by one, every format of a version's resume, and its answers
 * kept in memory never outliving an edit, on either of two instances.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpClient, type HttpClient } from "../../../test/http-client.ts";
import { hasPoppler, pdfText } from "../../../test/documents.ts";
import { startTwoResumeApis } from "../../../test/resume-api.ts";
import { addThreeJobs } from "../../../test/three-jobs.ts";
import { newUser } from "../../../test/tokens.ts";
import type { WebServer } from "../../../test/web-server.ts";

let first: WebServer;
let second: WebServer;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // The public rate limit has its own test (public-rate-limit.test.ts): the share link pages here are out of its way.
  ({ first, second, stop } = await startTwoResumeApis({ publicRateLimitPerMinute: 100_000 }));
});

afterAll(() => stop?.());

type Version = {
  id: string;
  name: string;
  headline: string | null;
  summary: string | null;
  theme: string | null;
  hide_email: boolean;
  include: Record<string, "all" | string[]>;
  created_at: string;
  updated_at: string;
};
type Issue = { path: string; message: string };

const ALL = {
  experience: "all",
  education: "all",
  skills: "all",
  certifications: "all",
  hobbies: "all",
  goals: "all",
};

/** A person with a profile, three jobs and two hobbies, signed in on `server`. */
async function personWithJobs(server: WebServer = first) {
  const { authorization } = await newUser();
  const api = httpClient(server.url, { authorization });
  await api.put("/me/profile", {
    name: "Vera Version",
    headline: "Engineer",
    summary: "The whole story.",
    email: "vera@example.org",
  });
  const jobs = await addThreeJobs(api);
  const hobby = await api.post<{ id: string }>("/me/hobbies", { name: "Chess" });
  return { api, authorization, jobs, hobbyId: hobby.body.id };
}

const resumeOf = async (api: HttpClient, id: string) =>
  (
    await api.get<{
      profile: Record<string, unknown>;
      experience: { organization: string; title: string; accomplishments: string[] }[];
    }>(`/me/versions/${id}/resume`)
  ).body;

describe("POST /me/versions", () => {
  it('answers 201 with the version, Location, and every collection "all" when left out', async () => {
    const { api } = await personWithJobs();
    const created = await api.post<Version>("/me/versions", { name: "  Backend roles " });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/me/versions/${created.body.id}`);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Backend roles",
      headline: null,
      summary: null,
      theme: null,
      hide_email: false,
      include: ALL,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api.get(`/me/versions/${created.body.id}`)).body).toEqual(created.body);
  });

  it("refuses a missing or long name, unknown fields and collections, and ids that are not uuids: 400 at their path", async () => {
    const { api } = await personWithJobs();
    const cases: [unknown, string][] = [
      [{}, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ name: "v", colour: "red" }, "colour"],
      [{ name: "v", include: { projects: "all" } }, "include.projects"],
      [{ name: "v", include: { experience: ["not-a-uuid"] } }, "include.experience.0"],
      [{ name: "v", include: { experience: "some" } }, "include.experience"],
      [{ name: "v", theme: "fancy" }, "theme"],
      [{ name: "v", hide_email: "yes" }, "hide_email"],
    ];
    for (const [body, path] of cases) {
      const answer = await api.post<{ issues: Issue[] }>("/me/versions", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(
        answer.body.issues.map((i) => i.path),
        JSON.stringify(body),
      ).toContain(path);
    }
  });

  it("names each bad item of an include list, and a list too long, with the list's own messages", async () => {
    const { api } = await personWithJobs();
    const issuesOf = async (skills: unknown) =>
      (await api.post<{ issues: Issue[] }>("/me/versions", { name: "v", include: { skills } })).body.issues;
    expect(await issuesOf(["not-a-uuid", 5])).toEqual([
      { path: "include.skills.0", message: "must be the id of an entry" },
      { path: "include.skills.1", message: "must be the id of an entry" },
    ]);
    const tooMany = Array.from({ length: 201 }, () => crypto.randomUUID());
    expect(await issuesOf(tooMany)).toEqual([
      { path: "include.skills", message: "must have at most 200 ids" },
    ]);
  });

  it("answers 400 at its path for an id that is another person's entry, or an entry of another collection", async () => {
    const { api, jobs, hobbyId } = await personWithJobs();
    const other = await personWithJobs();
    const answer = await api.post<{ issues: Issue[]; message: string }>("/me/versions", {
      name: "v",
      include: { experience: [jobs[0], other.jobs[0]], hobbies: [jobs[1], hobbyId] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual([
      { path: "include.experience.1", message: "is not the id of one of your experience entries" },
      { path: "include.hobbies.0", message: "is not the id of one of your hobbies entries" },
    ]);
    expect((await api.get<{ items: unknown[] }>("/me/versions")).body.items).toEqual([]);
  });

  it("takes an entry's id in capitals, as its own URL does, and answers it as the entry's id", async () => {
    const { api, jobs } = await personWithJobs();
    expect((await api.get(`/me/experience/${jobs[1]!.toUpperCase()}`)).status).toBe(200);
    const created = await api.post<Version>("/me/versions", {
      name: "capitals",
      include: { experience: [jobs[1]!.toUpperCase(), jobs[1]] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.include.experience).toEqual([jobs[1]]);
    expect((await resumeOf(api, created.body.id)).experience.map((e) => e.organization)).toEqual([
      "Beta Labs",
    ]);
  });

  it("allows 20 versions a person; the 21st is a 409", async () => {
    const { api } = await personWithJobs();
    for (let i = 0; i < 20; i += 1)
      expect((await api.post("/me/versions", { name: `v${i}` })).status).toBe(201);
    const refused = await api.post<{ message: string }>("/me/versions", { name: "one more" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/at most 20/);
    expect((await api.get<{ items: Version[] }>("/me/versions")).body.items.map((v) => v.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `v${i}`),
    );
  });
});

describe("a version's entries", () => {
  it('shows only the listed entries; an entry added later appears in "all" versions and in no list', async () => {
    const { api, jobs } = await personWithJobs();
    const picked = (
      await api.post<Version>("/me/versions", { name: "two", include: { experience: [jobs[0], jobs[2]] } })
    ).body;
    const everything = (await api.post<Version>("/me/versions", { name: "all" })).body;
    expect((await resumeOf(api, picked.id)).experience.map((e) => e.organization)).toEqual([
      "Gamma Inc",
      "Alpha Corp",
    ]);

    await api.post("/me/experience", {
      organization: "Delta Later",
      title: "Lead",
      start_date: "2024-01-01",
    });
    expect((await resumeOf(api, picked.id)).experience.map((e) => e.organization)).toEqual([
      "Gamma Inc",
      "Alpha Corp",
    ]);
    expect((await resumeOf(api, everything.id)).experience.map((e) => e.organization)).toEqual([
      "Delta Later",
      "Gamma Inc",
      "Beta Labs",
      "Alpha Corp",
    ]);
  });

  it("loses a deleted entry from every version, its list included", async () => {
    const { api, jobs } = await personWithJobs();
    const picked = (
      await api.post<Version>("/me/versions", { name: "two", include: { experience: [jobs[0], jobs[2]] } })
    ).body;
    const everything = (await api.post<Version>("/me/versions", { name: "all" })).body;
    expect((await api.delete(`/me/experience/${jobs[0]}`)).status).toBe(200);

    expect((await api.get<Version>(`/me/versions/${picked.id}`)).body.include.experience).toEqual([jobs[2]]);
    expect((await resumeOf(api, picked.id)).experience.map((e) => e.organization)).toEqual(["Gamma Inc"]);
    expect((await resumeOf(api, everything.id)).experience.map((e) => e.organization)).toEqual([
      "Gamma Inc",
      "Beta Labs",
    ]);
  });

  it("keeps its entries through a restore, a JSON Resume round trip and edits of the file; a job moved to another organization is a new one, in no list", async () => {
    const { api, jobs } = await personWithJobs();
    const picked = (
      await api.post<Version>("/me/versions", { name: "two", include: { experience: [jobs[0], jobs[2]] } })
    ).body;
    const listed = async () => (await api.get<Version>(`/me/versions/${picked.id}`)).body.include.experience;
    const shown = async () =>
      (await resumeOf(api, picked.id)).experience.map(({ organization, title, accomplishments }) => [
        organization,
        title,
        accomplishments,
      ]);

    const backup = (await api.get<{ experience: { organization: string; title: string }[] }>("/me/resume"))
      .body;
    expect((await api.put("/me/resume", backup)).status).toBe(200);
    expect(await listed()).toEqual([jobs[2], jobs[0]]);

    const exported = (await api.get<unknown>("/me/resume?format=jsonresume")).body;
    expect((await api.put("/me/resume?format=jsonresume", exported)).status).toBe(200);
    expect(await listed()).toEqual([jobs[2], jobs[0]]);

    // The same jobs edited: a title corrected, a highlight added and the start month moved in a JSON Resume file.
    const edited = structuredClone(backup);
    edited.experience.find((job) => job.organization === "Alpha Corp")!.title = "Senior Engineer";
    expect((await api.put("/me/resume", edited)).status).toBe(200);
    const file = (
      await api.get<{ work: { name: string; startDate: string; highlights?: string[] }[] }>(
        "/me/resume?format=jsonresume",
      )
    ).body;
    Object.assign(
      file.work.find((job) => job.name === "Gamma Inc")!,
      {
        startDate: "2021-03",
        highlights: ["Shipped the ledger"],
      },
    );
    expect((await api.put("/me/resume?format=jsonresume", file)).status).toBe(200);
    expect(await listed()).toEqual([jobs[2], jobs[0]]);
    expect(await shown()).toEqual([
      ["Gamma Inc", "Engineer", ["Shipped the ledger"]],
      ["Alpha Corp", "Senior Engineer", []],
    ]);

    // Without the id the backup gave it, a job moved to another organization is another job.
    const moved = structuredClone(backup) as { experience: { id?: string; organization: string }[] };
    const alpha = moved.experience.find((job) => job.organization === "Alpha Corp")!;
    alpha.organization = "Alpha Corporation";
    delete alpha.id;
    expect((await api.put("/me/resume", moved)).status).toBe(200);
    expect(await listed()).toEqual([jobs[2]]);
    expect((await shown()).map(([organization]) => organization)).toEqual(["Gamma Inc"]);
  });

  it("keeps an entry of a restored backup by the id it carries, whatever field the file changed, on its share link's page too; another person's id or an unknown one is a new entry", async () => {
    const { api, jobs, hobbyId } = await personWithJobs();
    const picked = (
      await api.post<Version>("/me/versions", {
        name: "two",
        include: { experience: [jobs[0], jobs[2]], hobbies: [hobbyId] },
      })
    ).body;
    const link = await api.post<{ url: string }>(`/me/versions/${picked.id}/links`, {});
    const listed = async () => (await api.get<Version>(`/me/versions/${picked.id}`)).body.include;
    type Backup = {
      experience: { id?: string; organization: string; start_date: string }[];
      hobbies: { id?: string; name: string }[];
    };
    const backup = (await api.get<Backup>("/me/resume")).body;

    // Every field of identity changed: the organization and the start year; the id in capitals, as a person may paste it.
    const edited = structuredClone(backup);
    const alpha = edited.experience.find((job) => job.id === jobs[0])!;
    Object.assign(alpha, {
      organization: "Alpha Corp Inc.",
      start_date: "2014-06-01",
      id: jobs[0]!.toUpperCase(),
    });
    edited.hobbies[0]!.name = "Weiqi";
    expect((await api.put("/me/resume?format=json", edited)).status).toBe(200);
    expect(await listed()).toMatchObject({ experience: [jobs[2], jobs[0]], hobbies: [hobbyId] });
    const page = await (await fetch(link.body.url)).text();
    expect(page).toContain("Alpha Corp Inc.");
    expect(page).toContain("Weiqi");
    expect(page).not.toContain("Chess");

    // An id of another person's entry, an unknown one, an id given twice: new entries (the twice-given
    // one pairs by content, as a file without ids would), and the other person's entry untouched.
    const other = await personWithJobs();
    const othersJob = other.jobs[0]!;
    const strange = structuredClone(edited);
    const gamma = strange.experience.find((job) => job.id === jobs[2])!;
    Object.assign(gamma, { organization: "Gamma Inc Renamed", id: othersJob });
    strange.experience.find((job) => job.id === jobs[1])!.id = "00000000-0000-4000-8000-000000000000";
    strange.hobbies.push({ ...strange.hobbies[0]!, name: "Weiqi again" });
    const answer = await api.put<{ resume: Backup }>("/me/resume", strange);
    expect(answer.status).toBe(200);
    const ids = answer.body.resume.experience.map((job) => job.id);
    expect(ids).not.toContain(othersJob);
    expect(ids).toContain(jobs[0]);
    expect(ids).not.toContain(jobs[2]);
    expect(await listed()).toMatchObject({ experience: [jobs[0]], hobbies: [hobbyId] });
    expect((await other.api.get<{ organization: string }>(`/me/experience/${othersJob}`)).body).toMatchObject(
      {
        organization: "Alpha Corp",
      },
    );
  });

  it("keeps each of two jobs at one organization in one year with its own edit, whatever the file's order", async () => {
    const { authorization } = await newUser();
    const api = httpClient(first.url, { authorization });
    const senior = await api.post<{ id: string }>("/me/experience", {
      organization: "Acme",
      title: "Senior Engineer",
      start_date: "2020-09-01",
    });
    await api.post("/me/experience", {
      organization: "Acme",
      title: "Engineer",
      start_date: "2020-01-01",
      end_date: "2020-08-31",
    });
    const picked = (
      await api.post<Version>("/me/versions", { name: "senior", include: { experience: [senior.body.id] } })
    ).body;
    const file = (
      await api.get<{ work: { position: string; startDate: string; highlights?: string[] }[] }>(
        "/me/resume?format=jsonresume",
      )
    ).body;
    for (const job of file.work) job.highlights = [`Did more as ${job.position}`];
    // A third job at Acme that year, first in the file: it takes neither job's place.
    file.work.unshift({ ...file.work[1]!, position: "Intern", startDate: "2020-03", highlights: [] });
    expect((await api.put("/me/resume?format=jsonresume", file)).status).toBe(200);

    expect((await api.get<Version>(`/me/versions/${picked.id}`)).body.include.experience).toEqual([
      senior.body.id,
    ]);
    const shown = (await resumeOf(api, picked.id)).experience;
    expect(shown.map(({ title, accomplishments }) => [title, accomplishments])).toEqual([
      ["Senior Engineer", ["Did more as Senior Engineer"]],
    ]);
  });

  it("keeps every dated entry through its own JSON Resume export, as it was: read as years (its days too), by month, a goal with no date", async () => {
    const { api } = await personWithJobs();
    const entries = {
      experience: [
        {
          organization: "Acme",
          title: "Eng",
          start_date: "2018-06-15",
          end_date: "2020-03-10",
          date_precision: "year",
        },
        { organization: "Acme", title: "Lead", start_date: "2020-03-11", date_precision: "year" },
        { organization: "Initech", title: "Intern", start_date: "2012-07-01", end_date: "2012-09-30" },
      ],
      education: [
        {
          institution: "Uni",
          degree: "BSc",
          start_date: "2008-09-22",
          end_date: "2012-06-30",
          date_precision: "year",
        },
        { institution: "School", degree: "A levels", start_date: "2006-09-04", end_date: "2008-06-27" },
      ],
      certifications: [
        {
          name: "CKA",
          issuing_organization: "CNCF",
          issue_date: "2020-05-20",
          expiration_date: "2023-05-20",
          date_precision: "year",
        },
        { name: "PMP", issuing_organization: "PMI", issue_date: "2021-03-04" },
      ],
      goals: [
        { description: "Learn", category: "learning", date_precision: "year" },
        { description: "Speak", category: "career", target_date: "2027-10-15", date_precision: "year" },
        { description: "Ship", category: "career", target_date: "2026-02-28" },
        { description: "Rest", category: "personal" },
      ],
    };
    const include: Record<string, string[]> = {};
    for (const [collection, list] of Object.entries(entries)) {
      include[collection] = [];
      for (const entry of list) {
        const created = await api.post<{ id: string }>(`/me/${collection}`, entry);
        expect(created.status).toBe(201);
        include[collection].push(created.body.id);
      }
    }
    const picked = (await api.post<Version>("/me/versions", { name: "dated", include })).body;
    const listed = async () => (await api.get<Version>(`/me/versions/${picked.id}`)).body.include;
    const before = await listed();
    const stored = async () => {
      const { profile: _, ...collections } = (
        await api.get<Record<string, Record<string, unknown>[] | null>>("/me/resume")
      ).body;
      return Object.fromEntries(
        Object.entries(collections).map(([name, list]) => [
          name,
          list!.map(({ created_at: _c, updated_at: _u, ...fields }) => fields),
        ]),
      );
    };
    const storedBefore = await stored();

    const exported = (await api.get<unknown>("/me/resume?format=jsonresume")).body;
    expect((await api.put("/me/resume?format=jsonresume", exported)).status).toBe(200);
    expect(await listed()).toEqual(before);
    expect(await stored()).toEqual(storedBefore);
    expect((await api.get<unknown>("/me/resume?format=jsonresume")).body).toEqual(exported);
    // Once more, now that the import kept the document: still the same entries.
    expect((await api.put("/me/resume?format=jsonresume", exported)).status).toBe(200);
    expect(await listed()).toEqual(before);
    expect(await stored()).toEqual(storedBefore);

    // Another start year is another job, which no list holds; a month where the job read as years is the job edited.
    const edited = structuredClone(exported) as { work: Record<string, unknown>[] };
    edited.work.find((job) => job.position === "Eng")!.startDate = "2017";
    edited.work.find((job) => job.position === "Lead")!.startDate = "2020-03";
    expect((await api.put("/me/resume?format=jsonresume", edited)).status).toBe(200);
    const [lead, , intern] = before.experience!;
    expect((await listed()).experience).toEqual([lead, intern]);
    expect((await listed()).goals).toEqual(before.goals);
  });

  it("shows its own headline and summary over the profile's, and hides the email when asked", async () => {
    const { api } = await personWithJobs();
    const own = (
      await api.post<Version>("/me/versions", {
        name: "own",
        headline: "Platform engineer",
        summary: "The short story.",
        hide_email: true,
      })
    ).body;
    const plain = (await api.post<Version>("/me/versions", { name: "plain" })).body;
    expect((await resumeOf(api, own.id)).profile).toMatchObject({
      name: "Vera Version",
      headline: "Platform engineer",
      summary: "The short story.",
      email: null,
    });
    expect((await resumeOf(api, plain.id)).profile).toMatchObject({
      headline: "Engineer",
      summary: "The whole story.",
      email: "vera@example.org",
    });
    for (const format of ["markdown", "text", "html", "jsonresume"]) {
      const answer = await api.get(`/me/versions/${own.id}/resume?format=${format}`);
      expect(answer.text, format).toContain("Platform engineer");
      expect(answer.text, format).not.toContain("vera@example.org");
      expect(answer.text, format).not.toContain("The whole story.");
    }
  });

  it("shows the goals summary only with goals: a version that lists none of them leaves the whole Goals section out", async () => {
    const { api } = await personWithJobs();
    await api.put("/me/profile", { name: "Vera Version", goals_summary: "Leave my job by March." });
    const goal = await api.post<{ id: string }>("/me/goals", {
      description: "Run a marathon",
      category: "personal",
    });
    const version = async (goals: "all" | string[]) =>
      (await api.post<Version>("/me/versions", { name: `goals ${String(goals)}`, include: { goals } })).body
        .id;
    const summaryIn = async (id: string) => {
      const text = (await api.get(`/me/versions/${id}/resume?format=text`)).text;
      return [
        (await resumeOf(api, id)).profile.goals_summary,
        text.includes("GOALS"),
        text.includes("Leave my job"),
      ];
    };
    expect(await summaryIn(await version("all"))).toEqual(["Leave my job by March.", true, true]);
    expect(await summaryIn(await version([goal.body.id]))).toEqual(["Leave my job by March.", true, true]);
    expect(await summaryIn(await version([]))).toEqual([null, false, false]);
    // The whole resume keeps it.
    expect((await api.get("/me/resume?format=text")).text).toContain("Leave my job by March.");
  });

  it("PUT replaces every field: what is left out is cleared", async () => {
    const { api, jobs } = await personWithJobs();
    const created = (
      await api.post<Version>("/me/versions", {
        name: "first",
        headline: "H",
        theme: "stackoverflow",
        hide_email: true,
        include: { experience: [jobs[1]] },
      })
    ).body;
    const replaced = await api.put<Version>(`/me/versions/${created.id}`, {
      ...created,
      name: "renamed",
      headline: undefined,
      include: undefined,
      theme: undefined,
      hide_email: undefined,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id: created.id,
      name: "renamed",
      headline: null,
      theme: null,
      hide_email: false,
      include: ALL,
    });
    expect(Date.parse(replaced.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    const refused = await api.put<{ issues: Issue[] }>(`/me/versions/${created.id}`, {
      name: "x",
      include: { experience: [(await personWithJobs()).jobs[0]] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues[0]!.path).toBe("include.experience.0");
  });

  it("DELETE answers 200, then the version is a 404", async () => {
    const { api } = await personWithJobs();
    const { id } = (await api.post<Version>("/me/versions", { name: "gone" })).body;
    expect((await api.delete(`/me/versions/${id}`)).status).toBe(200);
    for (const path of [`/me/versions/${id}`, `/me/versions/${id}/resume`, `/me/versions/${id}/links`])
      expect((await api.get(path)).status, path).toBe(404);
    expect((await api.delete(`/me/versions/${id}`)).status).toBe(404);
  });
});

describe("GET /me/versions/{id}/resume", () => {
  it("answers every format of GET /me/resume, with the same media types, its files named after it too", async () => {
    const { api, jobs } = await personWithJobs();
    const { id } = (
      await api.post<Version>("/me/versions", {
        name: "Back-end / Zürich",
        include: { experience: [jobs[1]] },
      })
    ).body;
    const expected: Record<string, string> = {
      json: "application/json; charset=utf-8",
      markdown: "text/markdown; charset=utf-8",
      jsonresume: "application/json; charset=utf-8",
      html: "text/html; charset=utf-8",
      pdf: "application/pdf",
      docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      text: "text/plain; charset=utf-8",
    };
    for (const [format, type] of Object.entries(expected)) {
      const version = await api.get(`/me/versions/${id}/resume?format=${format}`);
      const whole = await api.get(`/me/resume?format=${format}`);
      expect(version.status, format).toBe(200);
      expect(version.headers.get("content-type"), format).toBe(type);
      // Two versions' files, and a version's and the whole resume's, do not take each other's place.
      expect(version.headers.get("content-disposition"), format).toBe(
        format === "pdf" || format === "docx"
          ? `attachment; filename="Vera-Version-resume-Back-end-Zurich.${format}"; ` +
              `filename*=UTF-8''Vera-Version-resume-Back-end-Z%C3%BCrich.${format}`
          : whole.headers.get("content-disposition"),
      );
      if (format === "text" || format === "markdown" || format === "html") {
        expect(version.text, format).toContain("Beta Labs");
        expect(version.text, format).not.toContain("Gamma Inc");
        expect(whole.text, format).toContain("Gamma Inc");
      }
    }
    const page = await api.get(`/me/versions/${id}/resume?format=html`);
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:",
    );
  });

  it("uses the version's theme unless ?theme= names another", async () => {
    const { api } = await personWithJobs();
    const { id } = (await api.post<Version>("/me/versions", { name: "v", theme: "stackoverflow" })).body;
    const own = await api.get(`/me/versions/${id}/resume?format=html`);
    const asked = await api.get(`/me/versions/${id}/resume?format=html&theme=stackoverflow`);
    const even = await api.get(`/me/versions/${id}/resume?format=html&theme=even`);
    expect(own.text).toBe(asked.text);
    expect(own.text).not.toBe(even.text);
    expect((await api.get(`/me/versions/${id}/resume?format=html&theme=nope`)).status).toBe(400);
  });

  it("never answers a kept answer after an edit of an included entry, on this instance or the other", async () => {
    const { api, authorization, jobs } = await personWithJobs();
    const other = httpClient(second.url, { authorization });
    const { id } = (
      await api.post<Version>("/me/versions", { name: "v", include: { experience: [jobs[1]] } })
    ).body;
    for (const client of [api, other]) {
      for (const format of ["json", "text", "pdf"])
        await client.get(`/me/versions/${id}/resume?format=${format}`);
    }
    const job = (await api.get<Record<string, unknown>>(`/me/experience/${jobs[1]}`)).body;
    expect(
      (await api.put(`/me/experience/${jobs[1]}`, { ...job, organization: "Beta Renamed" })).status,
    ).toBe(200);
    for (const client of [api, other]) {
      expect((await resumeOf(client, id)).experience.map((e) => e.organization)).toEqual(["Beta Renamed"]);
      expect((await client.get(`/me/versions/${id}/resume?format=text`)).text).toContain("Beta Renamed");
      if (hasPoppler) {
        const pdf = await fetch(
          `${client === api ? first.url : second.url}/me/versions/${id}/resume?format=pdf`,
          {
            headers: { authorization },
          },
        );
        expect(await pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain("Beta Renamed");
      }
    }
    // A change to the version itself is seen at once too.
    const version = (await other.get<Version>(`/me/versions/${id}`)).body;
    await other.put(`/me/versions/${id}`, { ...version, headline: "Changed on the second" });
    expect((await resumeOf(api, id)).profile.headline).toBe("Changed on the second");
  });
});

describe("another person's version", () => {
  it("is a 404 on every route, and so is their link", async () => {
    const owner = await personWithJobs();
    const { id } = (await owner.api.post<Version>("/me/versions", { name: "mine" })).body;
    const link = await owner.api.post<{ id: string }>(`/me/versions/${id}/links`, {});
    expect(link.status).toBe(201);
    const stranger = (await personWithJobs()).api;
    const answers = [
      await stranger.get(`/me/versions/${id}`),
      await stranger.put(`/me/versions/${id}`, { name: "taken" }),
      await stranger.get(`/me/versions/${id}/resume`),
      await stranger.get(`/me/versions/${id}/resume?format=pdf`),
      await stranger.get(`/me/versions/${id}/links`),
      await stranger.post(`/me/versions/${id}/links`, {}),
      await stranger.delete(`/me/links/${link.body.id}`),
      await stranger.delete(`/me/versions/${id}`),
    ];
    expect(answers.map((a) => a.status)).toEqual(Array(answers.length).fill(404));
    expect((await stranger.get<{ items: unknown[] }>("/me/versions")).body.items).toEqual([]);
    expect((await owner.api.get<Version>(`/me/versions/${id}`)).body.name).toBe("mine");
    expect((await owner.api.get<{ items: unknown[] }>(`/me/versions/${id}/links`)).body.items).toHaveLength(
      1,
    );
  });
});

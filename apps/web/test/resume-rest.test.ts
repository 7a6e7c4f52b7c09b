import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS, type CollectionName } from "@app/resume";
import { httpClient, readResult, type HttpClient } from "../../../test/http-client.ts";
import { COMPLETE, DATES, DEFAULTS, MINIMAL, REQUIRED, SK_PREFIX } from "../../../test/resume-fixtures.ts";
import { sendRaw } from "../../../test/raw-http.ts";
import { newUser, tokenFor } from "../../../test/tokens.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

/** Every /me route over real HTTP against the production build and a real PostgreSQL. */
let web: WebServer;

beforeAll(async () => {
  web = await startWebServer();
});

afterAll(async () => {
  await web?.stop();
});

async function signedIn(): Promise<{ api: HttpClient; userId: string }> {
  const { userId, authorization } = await newUser();
  return { api: httpClient(web.url, { authorization }), userId };
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = "6b0c3c4e-4d5e-4f60-8a1b-2c3d4e5f6a7b";

function expectError(result: { status: number; body: unknown }, status: number, error: string) {
  expect(result.status).toBe(status);
  expect(result.body).toMatchObject({ statusCode: status, error, message: expect.any(String) });
  const keys = Object.keys(result.body as object).sort();
  expect(keys.filter((k) => !["statusCode", "error", "message", "issues"].includes(k))).toEqual([]);
}

function issuePaths(body: unknown): string[] {
  return ((body as { issues?: { path: string }[] }).issues ?? []).map((i) => i.path);
}

describe("profile", () => {
  it("GET answers 404 until the first PUT, which creates it; a second PUT replaces every field", async () => {
    const { api, userId } = await signedIn();
    expectError(await api.get("/me/profile"), 404, "NOT_FOUND");

    const created = await api.put("/me/profile", {
      name: "  Ada Lovelace  ",
      headline: "Analyst",
      summary: "Wrote the first program.",
      location: "12 St James's Square",
      city: "London",
      region: "  England ",
      postal_code: "SW1Y 4JH",
      country_code: "GB",
      email: "ada@example.org",
      phone: "+44 20 7946 0000",
      links: { github: "https://github.com/ada", site: "https://ada.example" },
      goals_summary: "Keep computing.",
      language: " en-gb ",
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: "Ada Lovelace",
      // Trimmed, and written in its canonical form.
      language: "en-GB",
      city: "London",
      region: "England",
      postal_code: "SW1Y 4JH",
      country_code: "GB",
      phone: "+44 20 7946 0000",
      links: { github: "https://github.com/ada", site: "https://ada.example" },
      entity_type: "profile",
      pk: `USER#${userId}`,
      sk: "PROFILE",
    });
    expect(created.body.created_at).toMatch(ISO_UTC);
    expect((await api.get("/me/profile")).body).toEqual(created.body);

    const replaced = await api.put("/me/profile", { ...created.body, name: "Ada King" });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      name: "Ada King",
      headline: "Analyst",
      created_at: created.body.created_at,
    });

    const cleared = await api.put("/me/profile", { name: "Ada" });
    expect(cleared.body).toMatchObject({
      name: "Ada",
      headline: null,
      summary: null,
      links: {},
      email: null,
      phone: null,
      city: null,
      country_code: null,
      language: null,
    });
  });

  it("answers a PUT byte for byte as the GET after it, links in the order given (whole-number names first)", async () => {
    const { api } = await signedIn();
    // A jsonb column gave them back shorter names first, then in byte order; JavaScript puts integer keys first.
    const links = {
      zz: "https://z.example",
      é: "https://e-acute.example",
      b: "https://b.example",
      "10": "https://ten.example",
      "2": "https://two.example",
      a: "https://a.example",
      Z: "https://capital.example",
    };
    for (const body of [
      { name: "Ada", links },
      { name: "Ada", headline: "Analyst", links: {} },
      { name: "Ada", links },
    ]) {
      const put = await api.put("/me/profile", body);
      expect(put.status).toBe(200);
      expect(put.text).toBe((await api.get("/me/profile")).text);
    }
    expect(Object.keys((await api.get<{ links: object }>("/me/profile")).body.links)).toEqual([
      "2",
      "10",
      "zz",
      "é",
      "b",
      "a",
      "Z",
    ]);
  });

  it("keeps the links in the order the person gave them in every export", async () => {
    // Typed as linkedin, github, website, they came out github, website, linkedin everywhere.
    const { api } = await signedIn();
    const links = {
      linkedin: "https://linkedin.com/in/ada",
      github: "https://github.com/ada",
      website: "https://ada.example",
    };
    expect((await api.put("/me/profile", { name: "Ada", links })).status).toBe(200);
    const names = Object.keys(links);
    const markdown = (await api.get("/me/resume?format=markdown")).text;
    const shown = names.map((name) => markdown.indexOf(`[${name}]`));
    expect(shown.every((at) => at >= 0)).toBe(true);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    const jsonResume = await api.get<{ basics: { profiles: { network: string }[] } }>(
      "/me/resume?format=jsonresume",
    );
    expect(jsonResume.body.basics.profiles.map((p) => p.network)).toEqual(names);
    const whole = await api.get<{ profile: { links: object } }>("/me/resume");
    expect(Object.keys(whole.body.profile.links)).toEqual(names);
  });

  it("rejects a missing name, wrong types, bad links and email, and unknown keys", async () => {
    const { api } = await signedIn();
    const cases: [unknown, string][] = [
      [{}, "name"],
      [{ name: "   " }, "name"],
      [{ name: 42 }, "name"],
      [{ name: "A", headline: ["x"] }, "headline"],
      [{ name: "A", email: "not-an-email" }, "email"],
      [{ name: "A", phone: 4420794600 }, "phone"],
      [{ name: "A", city: ["London"] }, "city"],
      [{ name: "A", country_code: "x".repeat(201) }, "country_code"],
      [{ name: "A", links: { site: "ftp://example.org" } }, "links.site"],
      [{ name: "A", links: { site: "javascript:alert(1)" } }, "links.site"],
      // Browsers take it, but it is no URI (and the JSON Resume export would not be valid).
      [{ name: "A", links: { site: "https://example.org/a b" } }, "links.site"],
      [{ name: "A", links: "https://example.org" }, "links"],
      // As JSON text: in a JavaScript literal `__proto__` would set the prototype, not a key.
      ['{"name":"A","links":{"__proto__":"https://e.org"}}', "links.__proto__"],
      [
        {
          name: "A",
          links: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`l${i}`, "https://e.org"])),
        },
        "links",
      ],
      [{ name: "x".repeat(201) }, "name"],
      [{ name: "A", summary: "x".repeat(5001) }, "summary"],
      [{ name: "A", nickname: "Ada" }, "nickname"],
      // A language tag, not a language's name, nor a locale written with an underscore.
      [{ name: "A", language: "English" }, "language"],
      [{ name: "A", language: "en_US" }, "language"],
      [{ name: "A", language: "en-" }, "language"],
      [{ name: "A", language: 7 }, "language"],
      [{ name: "A", language: `en-${"a".repeat(40)}` }, "language"],
      // 32 characters as sent, 42 as written canonically (sh is sr-Latn, islamicc islamic-civil...).
      [{ name: "A", language: "sh-u-ca-islamicc-ms-imperial-x-a" }, "language"],
    ];
    for (const [body, path] of cases) {
      const result = await api.put("/me/profile", body);
      expectError(result, 400, "BAD_REQUEST");
      expect(issuePaths(result.body), JSON.stringify(body)).toContain(path);
    }
    expectError(await api.get("/me/profile"), 404, "NOT_FOUND");
  });

  it("trims an email and a credential URL as every string, and stores null for a blank one", async () => {
    const { api } = await signedIn();
    const padded = await api.put("/me/profile", { name: "A", email: " ada@example.org\n" });
    expect([padded.status, padded.body.email], padded.text).toEqual([200, "ada@example.org"]);
    for (const blank of ["", "  "]) {
      const cleared = await api.put("/me/profile", { name: "A", email: blank });
      expect([cleared.status, cleared.body.email], cleared.text).toEqual([200, null]);
      const certification = await api.post("/me/certifications", {
        ...MINIMAL.certifications,
        credential_url: blank,
      });
      expect([certification.status, certification.body.credential_url], certification.text).toEqual([
        201,
        null,
      ]);
    }
    const url = await api.post("/me/certifications", {
      ...MINIMAL.certifications,
      credential_url: " https://example.org/c ",
    });
    expect(url.body.credential_url).toBe("https://example.org/c");
  });

  it("refuses link names that are one once trimmed, and says why a link name is refused", async () => {
    const { api } = await signedIn();
    // Trimmed into one key, either link would silently replace the other.
    const twice = await api.put("/me/profile", {
      name: "A",
      links: { gh: "https://y.io", "gh ": "https://x.io" },
    });
    expectError(twice, 400, "BAD_REQUEST");
    expect(twice.body.issues).toEqual([{ path: "links.gh ", message: '"gh" appears twice' }]);
    const long = await api.put("/me/profile", { name: "A", links: { ["n".repeat(51)]: "https://x.io" } });
    expect(long.body.issues).toEqual([
      { path: `links.${"n".repeat(51)}`, message: "link names have at most 50 characters" },
    ]);
    expectError(await api.get("/me/profile"), 404, "NOT_FOUND");
  });
});

describe.each(COLLECTIONS.map((c) => [c.name, c.path] as [CollectionName, string]))("%s", (name, path) => {
  it("creates (201, Location, id, server fields, defaults), lists, gets, replaces and deletes", async () => {
    const { api, userId } = await signedIn();

    const created = await api.post(path, MINIMAL[name]);
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(id).toMatch(UUID_V4);
    expect(created.headers.get("location")).toBe(`${path}/${id}`);
    expect(created.body).toMatchObject({
      ...MINIMAL[name],
      ...DEFAULTS[name],
      pk: `USER#${userId}`,
      sk: `${SK_PREFIX[name]}#${id}`,
    });
    expect(created.body.entity_type).toBe(SK_PREFIX[name].toLowerCase());
    expect(created.body.created_at).toMatch(ISO_UTC);
    expect(created.body.updated_at).toBe(created.body.created_at);

    expect((await api.get(path)).body).toEqual({ items: [created.body] });
    expect((await api.get(`${path}/${id}`)).body).toEqual(created.body);

    // GET, edit, PUT: the server fields sent back are ignored.
    const replaced = await api.put(`${path}/${id}`, { ...created.body, ...COMPLETE[name] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ ...COMPLETE[name], id, created_at: created.body.created_at });

    // A PUT without the optional fields clears them.
    const cleared = await api.put(`${path}/${id}`, MINIMAL[name]);
    expect(cleared.body).toEqual({ ...created.body, updated_at: cleared.body.updated_at });

    const deleted = await api.delete(`${path}/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ statusCode: 200, message: expect.any(String) });
    expectError(await api.get(`${path}/${id}`), 404, "NOT_FOUND");
    expectError(await api.delete(`${path}/${id}`), 404, "NOT_FOUND");
    expect((await api.get(path)).body).toEqual({ items: [] });
  });

  it("rejects each missing required field, wrong types and unknown keys, and stores nothing", async () => {
    const { api } = await signedIn();
    for (const field of REQUIRED[name]) {
      const body = { ...MINIMAL[name] };
      delete body[field];
      const result = await api.post(path, body);
      expectError(result, 400, "BAD_REQUEST");
      expect(issuePaths(result.body)).toEqual([field]);
    }
    for (const field of Object.keys(COMPLETE[name])) {
      const wrong = typeof COMPLETE[name][field] === "string" ? 12345 : "not-the-right-type";
      const result = await api.post(path, { ...COMPLETE[name], [field]: wrong });
      expectError(result, 400, "BAD_REQUEST");
      expect(issuePaths(result.body), field).toContain(field);
    }
    const unknown = await api.post(path, { ...MINIMAL[name], colour: "blue" });
    expectError(unknown, 400, "BAD_REQUEST");
    expect(issuePaths(unknown.body)).toEqual(["colour"]);
    expectError(await api.post(path, [MINIMAL[name]]), 400, "BAD_REQUEST");

    expect((await api.get(path)).body).toEqual({ items: [] });
  });

  it("rejects over-long strings, bad dates and an end before the start", async () => {
    const { api } = await signedIn();
    const firstText = REQUIRED[name][0]!;
    const limit = name === "goals" ? 5000 : 200;
    expect((await api.post(path, { ...MINIMAL[name], [firstText]: "x".repeat(limit) })).status).toBe(201);
    const tooLong = await api.post(path, { ...MINIMAL[name], [firstText]: "x".repeat(limit + 1) });
    expectError(tooLong, 400, "BAD_REQUEST");
    expect(issuePaths(tooLong.body)).toEqual([firstText]);

    const dates = DATES[name];
    // How the dates read: `month` or `year`, nothing else (a value the enum lacks, another type, null).
    for (const bad of dates ? ["decade", "", null, 4] : []) {
      const result = await api.post(path, { ...MINIMAL[name], date_precision: bad });
      expectError(result, 400, "BAD_REQUEST");
      expect(issuePaths(result.body), String(bad)).toEqual(["date_precision"]);
    }
    for (const field of dates?.fields ?? []) {
      for (const bad of ["2021-02-30", "2021-13-01", "20210101", "yesterday", "0000-01-01"]) {
        const result = await api.post(path, { ...COMPLETE[name], [field]: bad });
        expectError(result, 400, "BAD_REQUEST");
        // The one issue: a date that is no date is not also compared with the other end of its range.
        expect(issuePaths(result.body), `${field}: ${bad}`).toEqual([field]);
      }
    }
    if (dates) {
      // Dates are trimmed like every string of a body.
      const spaced = Object.fromEntries(dates.fields.map((field) => [field, " 2021-02-03\r\n"]));
      const trimmed = await api.post(path, { ...COMPLETE[name], ...spaced });
      expect(trimmed.status, trimmed.text).toBe(201);
      for (const field of dates.fields) expect(trimmed.body[field], field).toBe("2021-02-03");
    }
    if (dates?.range) {
      const [start, end] = dates.range;
      // An optional date left blank is null, as an optional string is.
      const blank = await api.post(path, { ...COMPLETE[name], [end]: "  " });
      expect([blank.status, blank.body[end]], blank.text).toEqual([201, null]);
      const result = await api.post(path, { ...MINIMAL[name], [start]: "2022-05-02", [end]: "2022-05-01" });
      expectError(result, 400, "BAD_REQUEST");
      expect(issuePaths(result.body)).toEqual([end]);
      expect(
        (await api.post(path, { ...MINIMAL[name], [start]: "2022-05-02", [end]: "2022-05-02" })).status,
      ).toBe(201);
    }
  });

  it("rejects text with a lone UTF-16 surrogate, which PostgreSQL would store as U+FFFD, and stores nothing", async () => {
    const { api } = await signedIn();
    const firstText = REQUIRED[name][0]!;
    for (const bad of ["\ud800", "ends in half \udfff"]) {
      const result = await api.post(path, { ...MINIMAL[name], [firstText]: bad });
      expectError(result, 400, "BAD_REQUEST");
      expect(result.body.issues, JSON.stringify(bad)).toEqual([
        { path: firstText, message: "must be well-formed Unicode" },
      ]);
    }
    // A surrogate pair (one character) is fine.
    expect((await api.post(path, { ...MINIMAL[name], [firstText]: "ok \ud83d\ude42" })).status).toBe(201);
    expect(((await api.get(path)).body.items as unknown[]).length).toBe(1);
  });

  it("answers 400 for an id that is not a uuid and 404 for an unknown one, on get, replace and delete", async () => {
    const { api } = await signedIn();
    for (const id of ["not-a-uuid", "123", "6b0c3c4e-4d5e-4f60-8a1b-2c3d4e5f6a7"]) {
      expectError(await api.get(`${path}/${id}`), 400, "BAD_REQUEST");
      expectError(await api.put(`${path}/${id}`, MINIMAL[name]), 400, "BAD_REQUEST");
      expectError(await api.delete(`${path}/${id}`), 400, "BAD_REQUEST");
    }
    expectError(await api.get(`${path}/${UNKNOWN_ID}`), 404, "NOT_FOUND");
    expectError(await api.put(`${path}/${UNKNOWN_ID}`, MINIMAL[name]), 404, "NOT_FOUND");
    expectError(await api.delete(`${path}/${UNKNOWN_ID}`), 404, "NOT_FOUND");
  });
});

describe("types are not coerced", () => {
  it("rejects a number sent as a string or a boolean, which a REST adapter might coerce", async () => {
    const { api } = await signedIn();
    for (const years of ["5", true, "", [3]]) {
      const result = await api.post("/me/skills", { ...MINIMAL.skills, years_experience: years });
      expectError(result, 400, "BAD_REQUEST");
      expect(issuePaths(result.body)).toEqual(["years_experience"]);
    }
    expect((await api.get("/me/skills")).body).toEqual({ items: [] });
  });
});

describe("lists and limits", () => {
  it("answers a required field left out with 'is required' at its path, not its format's words", async () => {
    const { api } = await signedIn();
    const { start_date: _left, ...body } = MINIMAL.experience as Record<string, unknown>;
    const missing = await api.post("/me/experience", body);
    expectError(missing, 400, "BAD_REQUEST");
    expect(missing.body.issues).toEqual([{ path: "start_date", message: "is required" }]);
    // Sent, but not a date: the field's own words.
    const wrong = await api.post("/me/experience", { ...body, start_date: "soon" });
    expect(wrong.body.issues).toEqual([
      { path: "start_date", message: expect.not.stringMatching(/required/) as unknown },
    ]);
  });

  it("rejects more than 50 list items and list items over 1,000 characters", async () => {
    const { api } = await signedIn();
    const body = MINIMAL.experience;
    const many = await api.post("/me/experience", {
      ...body,
      responsibilities: Array.from({ length: 51 }, (_, i) => `r${i}`),
    });
    expectError(many, 400, "BAD_REQUEST");
    expect(issuePaths(many.body)).toEqual(["responsibilities"]);
    const long = await api.post("/me/experience", { ...body, accomplishments: ["ok", "y".repeat(1001)] });
    expectError(long, 400, "BAD_REQUEST");
    expect(issuePaths(long.body)).toEqual(["accomplishments.1"]);
    // A string where a list belongs is one issue, the type, not also a count the string does not have.
    const notAList = await api.post("/me/experience", { ...body, responsibilities: "r".repeat(60) });
    expect(notAList.body.issues).toEqual([
      { path: "responsibilities", message: "Invalid input: expected array, received string" },
    ]);
    expect(
      (
        await api.post("/me/experience", {
          ...body,
          responsibilities: Array.from({ length: 50 }, (_, i) => `r${i}`),
        })
      ).status,
    ).toBe(201);
    // A skill's keywords are such a list too.
    const keywords = await api.post("/me/skills", { ...MINIMAL.skills, keywords: "HTML, CSS" });
    expectError(keywords, 400, "BAD_REQUEST");
    expect(issuePaths(keywords.body)).toEqual(["keywords"]);
    const keyword = await api.post("/me/skills", { ...MINIMAL.skills, keywords: ["HTML", 5] });
    expect(issuePaths(keyword.body)).toEqual(["keywords.1"]);
    const saved = await api.post("/me/skills", { ...MINIMAL.skills, keywords: [" HTML ", "", "CSS"] });
    expect(saved.body.keywords).toEqual(["HTML", "CSS"]);
  });

  it("answers 409 to the 201st entry of a collection", async () => {
    const { api } = await signedIn();
    for (let batch = 0; batch < 20; batch += 1) {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => api.post("/me/hobbies", { name: `hobby ${batch * 10 + i}` })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    }
    expectError(await api.post("/me/hobbies", { name: "one too many" }), 409, "CONFLICT");
    expect(((await api.get("/me/hobbies")).body.items as unknown[]).length).toBe(200);
    expect((await api.post("/me/skills", MINIMAL.skills)).status).toBe(201);
  });
});

describe("order", () => {
  it("lists experience and education most recent first, the current role before ended ones", async () => {
    const { api } = await signedIn();
    for (const path of ["/me/experience", "/me/education"]) {
      const base = path === "/me/experience" ? MINIMAL.experience : MINIMAL.education;
      const add = async (label: string, start: string, end: string | null) =>
        (await api.post(path, { ...base, location: label, start_date: start, end_date: end })).body.id;
      const old = await add("old", "2010-01-01", "2012-01-01");
      const endedSameStart = await add("ended", "2018-01-01", "2019-06-30");
      const current = await add("current", "2018-01-01", null);
      const newest = await add("newest", "2021-03-01", null);
      const middle = await add("middle", "2015-01-01", "2017-12-31");
      const items = (await api.get(path)).body.items as { id: string }[];
      expect(
        items.map((i) => i.id),
        path,
      ).toEqual([newest, current, endedSameStart, middle, old]);
    }
  });

  it("lists skills, certifications, hobbies and goals in insertion order", async () => {
    const { api } = await signedIn();
    for (const name of ["skills", "certifications", "hobbies", "goals"] as const) {
      const path = `/me/${name}`;
      const ids: string[] = [];
      for (const suffix of ["b", "a", "c"]) {
        const body = { ...MINIMAL[name], [REQUIRED[name][0]!]: `${name} ${suffix}` };
        ids.push((await api.post(path, body)).body.id as string);
      }
      expect(
        ((await api.get(path)).body.items as { id: string }[]).map((i) => i.id),
        name,
      ).toEqual(ids);
    }
  });
});

describe("goal status", () => {
  it("moves active -> achieved -> active -> abandoned -> active; achieved <-> abandoned is a 409", async () => {
    const { api } = await signedIn();
    const goal = (await api.post("/me/goals", MINIMAL.goals)).body;
    const path = `/me/goals/${goal.id}`;
    const move = (status: string) => api.put(path, { ...MINIMAL.goals, status });

    expect((await move("achieved")).body.status).toBe("achieved");
    expect((await move("achieved")).status).toBe(200); // same status is not a move
    const forbidden = await move("abandoned");
    expectError(forbidden, 409, "CONFLICT");
    expect(forbidden.body.message).toMatch(/achieved to abandoned; allowed: active/);
    expect((await api.get(path)).body.status).toBe("achieved");

    expect((await move("active")).body.status).toBe("active");
    expect((await move("abandoned")).body.status).toBe("abandoned");
    expectError(await move("achieved"), 409, "CONFLICT");
    expect((await move("active")).body.status).toBe("active");
  });
});

describe("authentication", () => {
  it("answers 401 with WWW-Authenticate to a missing, malformed, foreign or expired token on every route", async () => {
    const expired = `Bearer ${await tokenFor("someone", -60)}`;
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /^Bearer realm="resume"$/],
      [{ authorization: "Bearer not.a.jwt" }, /error="invalid_token"/],
      [{ authorization: "Basic YTpi" }, /^Bearer realm="resume"$/],
      [{ authorization: expired }, /error="invalid_token", error_description="the token has expired"/],
    ];
    const routes: [string, string][] = [
      ["GET", "/me/profile"],
      ["PUT", "/me/profile"],
      ["GET", "/me/resume"],
      ...COLLECTIONS.flatMap((c): [string, string][] => [
        ["GET", c.path],
        ["POST", c.path],
        ["GET", `${c.path}/${UNKNOWN_ID}`],
        ["PUT", `${c.path}/${UNKNOWN_ID}`],
        ["DELETE", `${c.path}/${UNKNOWN_ID}`],
      ]),
    ];
    for (const [headers, challenge] of cases) {
      const api = httpClient(web.url, headers);
      for (const [method, path] of routes) {
        const body = method === "POST" || method === "PUT" ? {} : undefined;
        const result = await api.send(method, path, body);
        expectError(result, 401, "UNAUTHORIZED");
        expect(result.headers.get("www-authenticate"), `${method} ${path}`).toMatch(challenge);
      }
    }
  });

  it("answers 401 to two Authorization lines, even of one good token: which one counts would be a guess", async () => {
    const { authorization } = await newUser();
    const once = await sendRaw(web.url, {
      requestLine: "GET /me/resume HTTP/1.1",
      headers: [["Authorization", authorization]],
    });
    expect(once.status).toBe(200);
    for (const second of [authorization, "Bearer not.a.jwt"]) {
      const twice = await sendRaw(web.url, {
        requestLine: "GET /me/resume HTTP/1.1",
        headers: [
          ["Authorization", authorization],
          ["Authorization", second],
        ],
      });
      expect([twice.status, JSON.parse(twice.body)]).toEqual([
        401,
        {
          statusCode: 401,
          error: "UNAUTHORIZED",
          message: "send one Authorization header with one Bearer token",
        },
      ]);
      expect(twice.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    }
  });

  it("answers 415 to two Content-Type lines, even both JSON: Node would read the first alone", async () => {
    const { authorization } = await newUser();
    for (const second of ["application/json", "text/plain"]) {
      const twice = await sendRaw(web.url, {
        requestLine: "PUT /me/profile HTTP/1.1",
        headers: [
          ["Authorization", authorization],
          ["Content-Type", "application/json"],
          ["Content-Type", second],
        ],
        body: '{"name":"Ada"}',
      });
      expect([twice.status, JSON.parse(twice.body).error]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
    }
    expect((await httpClient(web.url, { authorization }).get("/me/profile")).status).toBe(404);
  });

  it("answers 401 whatever the body: malformed, not JSON, not UTF-8, too large", async () => {
    const api = httpClient(web.url);
    const bodies: [string | Uint8Array, Record<string, string>][] = [
      ["{not json", {}],
      ["name=x", { "content-type": "application/x-www-form-urlencoded" }],
      [Uint8Array.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]), { "content-type": "application/json" }],
      [JSON.stringify({ name: "x".repeat(100_000) }), {}],
    ];
    for (const [body, headers] of bodies) {
      const result = await api.send("PUT", "/me/profile", body, headers);
      expectError(result, 401, "UNAUTHORIZED");
      expect(result.headers.get("www-authenticate")).toBe('Bearer realm="resume"');
    }
  });
});

describe("HTTP edges", () => {
  it("answers 415 to a body that is not JSON, 400 to malformed JSON, 413 past 64 KiB", async () => {
    const { api } = await signedIn();
    expectError(
      await api.send("POST", "/me/hobbies", "name=x", {
        "content-type": "application/x-www-form-urlencoded",
      }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    expectError(
      await api.send("PUT", "/me/profile", '{"name": "x"}', { "content-type": "text/plain" }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    expectError(
      await api.post("/me/hobbies", { name: "x" }, { "content-encoding": "gzip" }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    expectError(await api.post("/me/hobbies", '{"name": "x",'), 400, "BAD_REQUEST");
    expectError(await api.post("/me/hobbies", ""), 400, "BAD_REQUEST");
    expectError(
      await api.put("/me/profile", { name: "x", summary: "y".repeat(70_000) }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    expect((await api.get("/me/hobbies")).body).toEqual({ items: [] });
    expectError(await api.get("/me/profile"), 404, "NOT_FOUND");
  });

  it("answers 413 to a body past 64 KiB sent without Content-Length (chunked), not a reset connection", async () => {
    const { authorization } = await newUser();
    const text = JSON.stringify({ name: "x", summary: "y".repeat(70_000) });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < text.length; i += 8_192)
          controller.enqueue(Buffer.from(text.slice(i, i + 8_192)));
        controller.close();
      },
    });
    const response = await fetch(`${web.url}/me/profile`, {
      method: "PUT",
      headers: { authorization, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expectError(await readResult(response), 413, "PAYLOAD_TOO_LARGE");
  });

  it("answers 405 with Allow to a method a path does not have, 404 to an unknown path", async () => {
    const { api } = await signedIn();
    const result = await api.send("PATCH", "/me/experience", {});
    expectError(result, 405, "METHOD_NOT_ALLOWED");
    expect(result.headers.get("allow")).toBe("GET, HEAD, POST");
    expect((await api.send("POST", "/me/profile", {})).headers.get("allow")).toBe("GET, HEAD, PUT");
    expectError(await api.get("/me/nothing-here"), 404, "NOT_FOUND");
  });

  it("sends API-Version: 1.0.0 on success and on error", async () => {
    const { api } = await signedIn();
    expect((await api.get("/me/skills")).headers.get("api-version")).toBe("1.0.0");
    expect((await api.get("/me/profile")).headers.get("api-version")).toBe("1.0.0");
    expect((await httpClient(web.url).get("/me/skills")).headers.get("api-version")).toBe("1.0.0");
  });
});

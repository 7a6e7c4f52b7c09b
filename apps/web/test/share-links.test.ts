/**
 * Share links (docs/resume-api.md, "Share links"): making, listing and
 * revoking them, and their public pages: the themed page and its files for
 * anyone, one 404 for every link that does not work, views counted, and
 * edits and revocations seen at once on both of two instances.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasPoppler, pdfText } from "../../../test/documents.ts";
import { httpClient, type HttpClient } from "../../../test/http-client.ts";
import { startTwoResumeApis } from "../../../test/resume-api.ts";
import { addThreeJobs } from "../../../test/three-jobs.ts";
import { newUser } from "../../../test/tokens.ts";
import type { WebServer } from "../../../test/web-server.ts";
import type pg from "pg";
import type { components } from "./generated/resume-api.ts";

let first: WebServer;
let second: WebServer;
let sql: pg.Client;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // The public rate limit has its own test (public-rate-limit.test.ts): here it is out of the way.
  ({ first, second, sql, stop } = await startTwoResumeApis({ publicRateLimitPerMinute: 100_000 }));
});

afterAll(() => stop?.());

const THEMED_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

/** A share link as the OpenAPI document declares it. */
type Link = components["schemas"]["ShareLink"];

/** A person with three jobs and a version showing two of them. */
async function sharedVersion() {
  const { authorization, userId } = await newUser();
  const api = httpClient(first.url, { authorization });
  await api.put("/me/profile", { name: "Paula Public", headline: "Engineer", email: "paula@example.org" });
  const jobs = await addThreeJobs(api);
  const version = await api.post<{ id: string }>("/me/versions", {
    name: "For recruiters",
    hide_email: true,
    include: { experience: [jobs[0], jobs[2]] },
  });
  return { api, authorization, userId, jobs, versionId: version.body.id };
}

const makeLink = async (api: HttpClient, versionId: string, body: unknown = {}) => {
  const created = await api.post<Link>(`/me/versions/${versionId}/links`, body);
  expect(created.status).toBe(201);
  return created.body;
};

/** The link's path on any server: `/r/<slug>`. */
const pathOf = (link: Link) => new URL(link.url).pathname;

/** Headers that differ between any two answers. */
const PER_ANSWER = new Set(["date", "x-request-id"]);
const comparable = (response: Response) =>
  [...response.headers].filter(([name]) => !PER_ANSWER.has(name)).sort(([a], [b]) => a.localeCompare(b));

describe("POST /me/versions/{id}/links", () => {
  it("answers 201 with a url of PUBLIC_URL and a slug of 192 random bits, working until revoked by default", async () => {
    const { api, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId);
    expect(link).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: expect.stringMatching(new RegExp(`^${first.url}/r/[A-Za-z0-9_-]{32}$`)),
      name: null,
      created_at: expect.any(String),
      expires_at: null,
      views: 0,
      last_viewed_at: null,
    });
    expect(Buffer.from(pathOf(link).slice(3), "base64url")).toHaveLength(24);
    const { rows } = await sql.query(
      `SELECT slug, encode(slug_hash, 'hex') AS hash FROM resume.share_links WHERE id = $1`,
      [link.id],
    );
    expect(rows[0].hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("takes a POST with no body and no Content-Type, as curl sends one, as {}", async () => {
    const { api, versionId } = await sharedVersion();
    const link = await api.send<Link>("POST", `/me/versions/${versionId}/links`);
    expect([link.status, link.body.expires_at], link.text).toEqual([201, null]);
  });

  it("expires after expires_in_days (1-365); other values are a 400", async () => {
    const { api, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId, { expires_in_days: 30 });
    expect((Date.parse(link.expires_at!) - Date.parse(link.created_at)) / 86_400_000).toBe(30);
    for (const expires_in_days of [0, 366, 1.5, "7", -1]) {
      const refused = await api.post<{ issues: { path: string }[] }>(`/me/versions/${versionId}/links`, {
        expires_in_days,
      });
      expect(refused.status, String(expires_in_days)).toBe(400);
      expect(refused.body.issues[0]!.path).toBe("expires_in_days");
    }
    expect(
      (await api.post(`/me/versions/${versionId}/links`, { expires_in_days: 1, extra: true })).status,
    ).toBe(400);
  });

  it("names a link for its owner alone: trimmed, listed, never on its page; empty or null is no name", async () => {
    const { api, versionId } = await sharedVersion();
    const named = await makeLink(api, versionId, { name: "  Acme, Jane Doe  ", expires_in_days: 7 });
    expect(named.name).toBe("Acme, Jane Doe");
    for (const name of ["", "   ", null]) expect((await makeLink(api, versionId, { name })).name).toBeNull();
    const listed = (await api.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items;
    expect(listed.find((l) => l.id === named.id)?.name).toBe("Acme, Jane Doe");
    const page = await fetch(named.url);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("Acme, Jane Doe");
    expect((await makeLink(api, versionId, { name: "é".repeat(100) })).name).toBe("é".repeat(100));
  });

  it("refuses a name that is not text or is over 100 characters, at name, and makes no link of it", async () => {
    const { api, versionId } = await sharedVersion();
    for (const name of ["x".repeat(101), 42, ["Acme"], { who: "Acme" }, true]) {
      const refused = await api.post<{ issues: { path: string }[] }>(`/me/versions/${versionId}/links`, {
        name,
      });
      expect(refused.status, JSON.stringify(name)).toBe(400);
      expect(refused.body.issues[0]!.path).toBe("name");
    }
    expect((await api.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items).toEqual([]);
  });

  it("answers a retry with the same name its link, and the same key with another name 422", async () => {
    const { api, versionId } = await sharedVersion();
    const path = `/me/versions/${versionId}/links`;
    const headers = { "idempotency-key": "link-for-acme" };
    const made = await api.post<Link>(path, { name: "Acme" }, headers);
    const retry = await api.post<Link>(path, { name: " Acme " }, headers);
    expect([made.status, retry.status, retry.headers.get("idempotent-replayed")]).toEqual([201, 201, "true"]);
    expect(retry.body).toEqual(made.body);
    const other = await api.post(path, { name: "Globex" }, headers);
    expect(other.status).toBe(422);
    expect((await api.get<{ items: Link[] }>(path)).body.items).toHaveLength(1);
  });

  it("answers a retry of a create kept before links had a name and a last view with both null, not a 500", async () => {
    const { api, userId, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId);
    // The key and answer as that create kept them: the request hashed as it is for an unnamed link.
    const { name: _name, last_viewed_at: _lastViewedAt, ...keptAnswer } = link;
    await sql.query(
      `INSERT INTO resume.idempotency_keys (user_id, idempotency_key, collection, request_hash, entry)
       VALUES ($1, 'kept-before-names', $2, encode(sha256($3::bytea), 'hex'), $4::jsonb)`,
      [
        userId,
        `versions/${versionId}/links`,
        JSON.stringify({ expires_in_days: null }),
        JSON.stringify(keptAnswer),
      ],
    );
    const retry = await api.post<Link>(
      `/me/versions/${versionId}/links`,
      {},
      { "idempotency-key": "kept-before-names" },
    );
    expect([retry.status, retry.headers.get("idempotent-replayed")], retry.text).toEqual([201, "true"]);
    expect(retry.body).toEqual(link);
  });

  it("answers a body that is not a JSON object 400, and makes no link of it", async () => {
    const { api, versionId } = await sharedVersion();
    for (const body of ["null", "42", "[]", '"x"', "true"]) {
      const refused = await api.post<{ message: string }>(`/me/versions/${versionId}/links`, body);
      expect([refused.status, refused.body.message], body).toEqual([400, "the body must be a JSON object"]);
    }
    expect((await api.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items).toEqual([]);
  });

  it("allows 10 links a version; the 11th is a 409; the list is newest first", async () => {
    const { api, versionId } = await sharedVersion();
    const made: Link[] = [];
    for (let i = 0; i < 10; i += 1) made.push(await makeLink(api, versionId));
    const refused = await api.post<{ message: string }>(`/me/versions/${versionId}/links`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/at most 10/);
    const listed = (await api.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items;
    expect(listed.map((l) => l.id).sort()).toEqual(made.map((l) => l.id).sort());
    expect(listed.map((l) => l.created_at)).toEqual([...listed.map((l) => l.created_at)].sort().reverse());
    expect(new Set(listed.map((l) => l.url)).size).toBe(10);
  });

  it("keeps the cap when two creates spell the version's id in other cases at once", async () => {
    const { api, versionId } = await sharedVersion();
    for (let i = 0; i < 9; i += 1) await makeLink(api, versionId);
    // A row lock holds both creates after they start, so each would count the nine alone.
    await sql.query("BEGIN");
    await sql.query("SELECT 1 FROM resume.tailored_versions WHERE id = $1 FOR UPDATE", [versionId]);
    const creates = [versionId.toLowerCase(), versionId.toUpperCase()].map((spelled) =>
      api.post<Link>(`/me/versions/${spelled}/links`, {}),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sql.query("COMMIT");
    expect((await Promise.all(creates)).map((answer) => answer.status).sort()).toEqual([201, 409]);
    const listed = (await api.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items;
    expect(listed).toHaveLength(10);
  });

  it("answers a link made while its version is being deleted 404, never a 500", async () => {
    const { api, versionId } = await sharedVersion();
    // The deletion holds the version's row while the link is made, then commits.
    await sql.query("BEGIN");
    await sql.query("DELETE FROM resume.tailored_versions WHERE id = $1", [versionId]);
    const link = api.post<{ message: string }>(`/me/versions/${versionId}/links`, {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sql.query("COMMIT");
    const answer = await link;
    expect([answer.status, answer.body.message], answer.text).toEqual([
      404,
      "no tailored version with that id",
    ]);
  });
});

describe("PATCH /me/links/{id}", () => {
  it("names a link anew, or clears its name with null; its address, expiry and views stay", async () => {
    const { api, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId, { name: "Acme", expires_in_days: 30 });
    const renamed = await api.send<Link>("PATCH", `/me/links/${link.id}`, {
      name: "  Globex, Hank Scorpio ",
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toEqual({ ...link, name: "Globex, Hank Scorpio" });
    const listed = (await api.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items;
    expect(listed.map((l) => l.name)).toEqual(["Globex, Hank Scorpio"]);
    const cleared = await api.send<Link>("PATCH", `/me/links/${link.id.toUpperCase()}`, { name: null });
    expect([cleared.status, cleared.body.name]).toEqual([200, null]);
    expect((await fetch(link.url)).status).toBe(200);
  });

  it("refuses a body without a name, with one that is not text or too long, or with other fields, and changes nothing", async () => {
    const { api, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId, { name: "Acme" });
    const bodies: [unknown, string][] = [
      [{}, "name"],
      [{ name: 42 }, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ name: "Globex", expires_in_days: 7 }, "expires_in_days"],
    ];
    for (const [body, path] of bodies) {
      const refused = await api.send<{ issues: { path: string }[] }>("PATCH", `/me/links/${link.id}`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.issues[0]!.path).toBe(path);
    }
    const listed = (await api.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items;
    expect(listed).toEqual([link]);
  });

  it("answers for another person's link, or none, 404, and for an id that is not one 400", async () => {
    const { api: owner, versionId } = await sharedVersion();
    const link = await makeLink(owner, versionId, { name: "Acme" });
    const stranger = httpClient(first.url, { authorization: (await newUser()).authorization });
    for (const id of [link.id, "00000000-0000-4000-8000-000000000000"]) {
      expect((await stranger.send("PATCH", `/me/links/${id}`, { name: "mine" })).status).toBe(404);
    }
    expect((await owner.send("PATCH", "/me/links/not-a-uuid", { name: "x" })).status).toBe(400);
    expect((await owner.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items[0]!.name).toBe(
      "Acme",
    );
  });
});

describe("GET /r/{slug}", () => {
  it("answers the version's themed page to anyone, with its headers and links to its files", async () => {
    const { api, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId);
    const page = await fetch(link.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(THEMED_PAGE_POLICY);
    expect(page.headers.get("x-robots-tag")).toBe("noindex");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toContain("Paula Public");
    expect(html).toContain("Alpha Corp");
    expect(html).toContain("Gamma Inc");
    expect(html).not.toContain("Beta Labs");
    expect(html).not.toContain("paula@example.org");
    const slug = pathOf(link).slice(3);
    expect(html).toContain(`href="${slug}.pdf"`);
    expect(html).toContain(`href="${slug}.docx"`);
    expect(new URL(`${slug}.pdf`, link.url).pathname).toBe(`/r/${slug}.pdf`);
  });

  it("lays a right-to-left line out right to left: its text blocks take the direction of their first letter", async () => {
    const hebrew = "בניתי מערכת ב-React Native (2020) עם 3 אנשים";
    const { authorization } = await newUser();
    const api = httpClient(first.url, { authorization });
    await api.put("/me/profile", { name: "דנה כהן" });
    const job = await api.post<{ id: string }>("/me/experience", {
      organization: "Acme",
      title: "Engineer",
      start_date: "2020-01-15",
      responsibilities: [hebrew, "Built the billing system"],
    });
    const version = await api.post<{ id: string }>("/me/versions", {
      name: "All",
      include: { experience: [job.body.id] },
    });
    const html = await (await fetch((await makeLink(api, version.body.id)).url)).text();
    // even, the default theme, writes a bullet as <li><p>; the item takes the direction, its bullet at the right.
    expect(html).toContain(`<li dir="auto"><p>${hebrew}</p></li>`);
    expect(html).toContain('<h1 dir="auto">דנה כהן</h1>');
  });

  it("answers the version's PDF and Word files as attachments", async () => {
    const { api, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId);
    const pdf = await fetch(`${link.url}.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toMatch(/^attachment; filename="Paula-Public-resume.pdf"/);
    expect(pdf.headers.get("x-robots-tag")).toBe("noindex");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe("%PDF-");
    if (hasPoppler) {
      const text = await pdfText(bytes);
      expect(text).toContain("Gamma Inc");
      expect(text).not.toContain("Beta Labs");
    }
    const docx = await fetch(`${link.url}.docx`);
    expect(docx.status).toBe(200);
    expect(docx.headers.get("content-disposition")).toMatch(
      /^attachment; filename="Paula-Public-resume.docx"/,
    );
    expect((await fetch(link.url, { method: "HEAD" })).status).toBe(200);
  });

  it("answers its PDF on US Letter with ?paper=letter, linked from its page, and refuses another paper, or two", async () => {
    const { api, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId);
    const slug = pathOf(link).slice(3);
    expect(await (await fetch(link.url)).text()).toContain(`href="${slug}.pdf?paper=letter"`);
    const mediaBoxOf = async (url: string) =>
      /\/MediaBox \[([^\]]*)\]/.exec(
        Buffer.from(await (await fetch(url)).arrayBuffer()).toString("latin1"),
      )?.[1];
    expect(await mediaBoxOf(`${link.url}.pdf`)).toBe("0 0 595.28 841.89");
    expect(await mediaBoxOf(`${link.url}.pdf?paper=letter`)).toBe("0 0 612 792");
    // The A4 file kept in memory is not answered for Letter, nor the other way round.
    expect(await mediaBoxOf(`${link.url}.pdf`)).toBe("0 0 595.28 841.89");
    const other = await fetch(`${link.url}.pdf?paper=legal`);
    expect([other.status, ((await other.json()) as { message: string }).message]).toEqual([
      400,
      "paper: must be one of a4, letter",
    ]);
    const twice = await fetch(`${link.url}.pdf?paper=a4&paper=letter`);
    expect([twice.status, ((await twice.json()) as { message: string }).message]).toEqual([
      400,
      "paper: is given more than once: send it once",
    ]);
  });

  it("answers unknown, revoked and expired links with one 404, byte for byte", async () => {
    const { api, versionId } = await sharedVersion();
    const revoked = await makeLink(api, versionId);
    const expired = await makeLink(api, versionId, { expires_in_days: 1 });
    const deletedVersion = (await api.post<{ id: string }>("/me/versions", { name: "to delete" })).body.id;
    const ofDeletedVersion = await makeLink(api, deletedVersion);
    expect((await fetch(revoked.url)).status).toBe(200);
    expect((await api.delete(`/me/links/${revoked.id}`)).status).toBe(200);
    await sql.query(`UPDATE resume.share_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expired.id,
    ]);
    expect((await api.delete(`/me/versions/${deletedVersion}`)).status).toBe(200);

    const targets = [
      `${first.url}/r/${"A".repeat(32)}`, // unknown, shaped like a slug
      revoked.url,
      expired.url,
      ofDeletedVersion.url,
      `${first.url}/r/not-a-slug`,
    ];
    const answers = await Promise.all(
      targets.map(async (url) => {
        const response = await fetch(url);
        return { status: response.status, headers: comparable(response), body: await response.text() };
      }),
    );
    expect(answers[0]!.status).toBe(404);
    expect(JSON.parse(answers[0]!.body)).toEqual({
      statusCode: 404,
      error: "NOT_FOUND",
      message: "no page here: this link is unknown, revoked or expired",
    });
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    // The files of a dead link are the same 404.
    const pdf = await fetch(`${revoked.url}.pdf`);
    expect({ status: pdf.status, headers: comparable(pdf), body: await pdf.text() }).toEqual(answers[0]);
  });

  it("answers hostile paths under /r/ with that same 404, never a 5xx", async () => {
    const reference = await fetch(`${first.url}/r/${"A".repeat(32)}`);
    const expected = { status: 404, headers: comparable(reference), body: await reference.text() };
    for (const path of [
      `/r/${"x".repeat(5_000)}`,
      "/r/%00",
      "/r/a%2Fb",
      "/r/",
      `/r/${"A".repeat(32)}.pdf.pdf`,
      `/r/${"A".repeat(32)}.exe`,
      `/r/${"A".repeat(32)}/`,
      `/r/${"A".repeat(31)}%C3%A9`,
      "/r/..%2F..%2Fme%2Fprofile",
    ]) {
      const response = await fetch(`${first.url}${path}`);
      expect(
        { status: response.status, headers: comparable(response), body: await response.text() },
        path,
      ).toEqual(expected);
    }
  });

  it("answers a browser opening a dead link with one page that says so, and a program with the JSON 404", async () => {
    const { api, versionId } = await sharedVersion();
    const revoked = await makeLink(api, versionId);
    expect((await api.delete(`/me/links/${revoked.id}`)).status).toBe(200);
    const browser = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
    const answers = await Promise.all(
      [
        `${first.url}/r/${"A".repeat(32)}`,
        revoked.url,
        `${revoked.url}.pdf`,
        `${first.url}/r/not-a-slug`,
      ].map(async (url) => {
        const response = await fetch(url, { headers: browser });
        return { status: response.status, headers: comparable(response), body: await response.text() };
      }),
    );
    expect(answers[0]!.status).toBe(404);
    expect(Object.fromEntries(answers[0]!.headers)).toMatchObject({
      "content-type": "text/html; charset=utf-8",
      vary: "accept",
    });
    expect(answers[0]!.body).toContain("<h1>This link no longer works</h1>");
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);

    for (const accept of ["*/*", "application/json", "text/html;q=0, */*"]) {
      const response = await fetch(revoked.url, { headers: { accept } });
      expect(response.status, accept).toBe(404);
      expect(response.headers.get("content-type"), accept).toBe("application/json; charset=utf-8");
      expect(response.headers.get("vary"), accept).toBe("accept");
    }
  });

  it("counts views: each page answered (GET, 200), not HEAD, not the files; and when the last was", async () => {
    const { api, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId);
    const onSecond = link.url.replace(first.url, second.url);
    const before = Date.now();
    for (const url of [link.url, link.url, onSecond]) expect((await fetch(url)).status).toBe(200);
    await fetch(link.url, { method: "HEAD" });
    await fetch(`${link.url}.pdf`);
    let counted = link;
    for (const deadline = Date.now() + 5_000; Date.now() < deadline && counted.views < 3;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      counted = (await api.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items[0]!;
    }
    expect(counted.views).toBe(3);
    // Stamped by the database's clock when the views are written, a second or so after the page.
    expect(Date.parse(counted.last_viewed_at!)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(counted.last_viewed_at!)).toBeLessThanOrEqual(Date.now() + 1_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await api.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items[0]!.views).toBe(
      3,
    );
  });

  it("keeps a view's time when writing it fails: the next write counts it, as last viewed when it was", async () => {
    const { api, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId);
    // A real refusal from PostgreSQL, for this link's row alone (other files' links share the table).
    const refuse = `refuse_views_${link.id.replaceAll("-", "")}`;
    await sql.query(
      `CREATE FUNCTION resume.${refuse}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF NEW.id = '${link.id}' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$;
       CREATE TRIGGER ${refuse} BEFORE UPDATE ON resume.share_links FOR EACH ROW EXECUTE FUNCTION resume.${refuse}()`,
    );
    let allowedAt: number;
    try {
      const viewedAt = Date.now();
      expect((await fetch(link.url)).status).toBe(200);
      // Two writes of the view are refused meanwhile (one a second).
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const listed = (await api.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items[0]!;
      expect([listed.views, listed.last_viewed_at]).toEqual([0, null]);
      allowedAt = Date.now();
      expect(allowedAt - viewedAt).toBeGreaterThan(2_000);
    } finally {
      await sql.query(`DROP TRIGGER ${refuse} ON resume.share_links; DROP FUNCTION resume.${refuse}()`);
    }
    let counted: Link | undefined;
    for (const deadline = Date.now() + 5_000; Date.now() < deadline && !counted?.views;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      counted = (await api.get<{ items: Link[] }>(`/me/versions/${versionId}/links`)).body.items[0]!;
    }
    expect(counted?.views).toBe(1);
    // The view's own time, not the time of the write that at last went through.
    expect(Date.parse(counted!.last_viewed_at!)).toBeLessThan(allowedAt - 1_500);
  });

  it("takes only GET and HEAD", async () => {
    const { api, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId);
    const posted = await fetch(link.url, { method: "POST", body: "{}" });
    expect(posted.status).toBe(405);
    expect(posted.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("on two instances", () => {
  it("an edit of an included entry shows at once on the other instance's page and PDF", async () => {
    const { api, jobs, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId);
    const onSecond = link.url.replace(first.url, second.url);
    expect(await (await fetch(onSecond)).text()).toContain("Gamma Inc");
    await fetch(`${onSecond}.pdf`);
    const job = (await api.get<Record<string, unknown>>(`/me/experience/${jobs[2]}`)).body;
    expect(
      (await api.put(`/me/experience/${jobs[2]}`, { ...job, organization: "Gamma Renamed" })).status,
    ).toBe(200);

    const page = await (await fetch(onSecond)).text();
    expect(page).toContain("Gamma Renamed");
    expect(page).not.toContain("Gamma Inc");
    const pdf = new Uint8Array(await (await fetch(`${onSecond}.pdf`)).arrayBuffer());
    if (hasPoppler) expect(await pdfText(pdf)).toContain("Gamma Renamed");
    // An entry the version does not show changes nothing on it.
    await api.put(`/me/experience/${jobs[1]}`, {
      organization: "Beta Renamed",
      title: "Engineer",
      start_date: "2018-01-01",
    });
    expect(await (await fetch(onSecond)).text()).not.toContain("Beta");
  });

  it("a revoked link is a 404 at once on both instances, kept answers included", async () => {
    const { api, authorization, versionId } = await sharedVersion();
    const link = await makeLink(api, versionId);
    const urls = [link.url, link.url.replace(first.url, second.url)];
    for (const url of urls) {
      expect((await fetch(url)).status).toBe(200);
      expect((await fetch(`${url}.pdf`)).status).toBe(200);
    }
    // Revoked through the instance that did not make it.
    expect((await httpClient(second.url, { authorization }).delete(`/me/links/${link.id}`)).status).toBe(200);
    for (const url of urls) {
      expect((await fetch(url)).status, url).toBe(404);
      expect((await fetch(`${url}.pdf`)).status, url).toBe(404);
    }
    expect((await api.delete(`/me/links/${link.id}`)).status).toBe(404);
  });
});

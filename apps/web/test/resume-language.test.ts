import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THEME_NAMES } from "@app/resume";
import { docxPart } from "../../../test/documents.ts";
import { httpClient } from "../../../test/http-client.ts";
import { newUser } from "../../../test/tokens.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

/**
 * The language a resume is written in (the profile's `language`, else the one
 * its script tells): its themed pages say it in `<html lang>`, its PDF in the
 * catalog's /Lang, its Word file in the default run's `w:lang`, and its JSON
 * Resume export in `meta["x-resume"].language`.
 */
let web: WebServer;

beforeAll(async () => {
  // The public rate limit counts every share-link page from this address, in the database all
  // test files share; it has its own test (public-rate-limit.test.ts): here it is out of the way.
  web = await startWebServer({ PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" });
});

afterAll(async () => {
  await web?.stop();
});

/** A new person whose profile is `profile` and who holds one job titled `title`. */
async function personWith(profile: Record<string, unknown>, title: string) {
  const { authorization } = await newUser();
  const api = httpClient(web.url, { authorization });
  expect((await api.put("/me/profile", profile)).status).toBe(200);
  const job = { organization: "Acme", title, start_date: "2020-01-01", responsibilities: [title] };
  expect((await api.post("/me/experience", job)).status).toBe(201);
  return { api, authorization };
}

async function bytesOf(path: string, authorization: string) {
  const response = await fetch(`${web.url}${path}`, { headers: { authorization } });
  expect(response.status, path).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

const pageLanguage = (html: string) => /<html\b[^>]*\slang="([^"]*)"/.exec(html)?.[1];
const pdfLanguage = (pdf: Uint8Array) => /\/Lang \(([^)]*)\)/.exec(Buffer.from(pdf).toString("latin1"))?.[1];
async function wordLanguage(docx: Uint8Array) {
  const styles = await docxPart(docx, "word/styles.xml");
  return /<w:docDefaults>.*?<w:lang ([^/]*)\/>/s.exec(styles)?.[1];
}

describe("the resume's language", () => {
  it("set on the profile, is said by every themed page, a version's too, the PDF, the Word file and the export", async () => {
    const { api, authorization } = await personWith(
      { name: "Jana Nováková", language: "de" },
      "Entwicklerin",
    );
    for (const theme of THEME_NAMES) {
      const page = await api.get(`/me/resume?format=html&theme=${theme}`);
      expect(pageLanguage(page.text), theme).toBe("de");
    }
    const version = await api.post<{ id: string }>("/me/versions", { name: "Kurz" });
    expect(pageLanguage((await api.get(`/me/versions/${version.body.id}/resume?format=html`)).text)).toBe(
      "de",
    );
    const link = await api.post<{ url: string }>(`/me/versions/${version.body.id}/links`, {});
    const shared = await fetch(`${web.url}${new URL(link.body.url).pathname}`);
    expect([shared.status, pageLanguage(await shared.text())]).toEqual([200, "de"]);
    expect(pdfLanguage(await bytesOf("/me/resume?format=pdf", authorization))).toBe("de");
    expect(await wordLanguage(await bytesOf("/me/resume?format=docx", authorization))).toBe('w:val="de"');
    const exported = await api.get<{ meta: { "x-resume": { language: string } } }>(
      "/me/resume?format=jsonresume",
    );
    expect(exported.body.meta["x-resume"].language).toBe("de");
  });

  it("not set, is the one the text's script tells: Hebrew on the page, in the PDF and as Word's right-to-left language", async () => {
    const { api, authorization } = await personWith({ name: "דנה לוי" }, "מפתחת תוכנה בכירה");
    for (const theme of THEME_NAMES)
      expect(pageLanguage((await api.get(`/me/resume?format=html&theme=${theme}`)).text), theme).toBe("he");
    expect(pdfLanguage(await bytesOf("/me/resume?format=pdf", authorization))).toBe("he");
    expect(await wordLanguage(await bytesOf("/me/resume?format=docx", authorization))).toBe('w:bidi="he"');
  });

  it("not set and not told by the script, is English as before, and the Word file names none", async () => {
    const { api, authorization } = await personWith({ name: "Ada Lovelace" }, "Analyst");
    const themes = await Promise.all(
      THEME_NAMES.map(async (theme) =>
        pageLanguage((await api.get(`/me/resume?format=html&theme=${theme}`)).text),
      ),
    );
    expect(themes).toEqual(THEME_NAMES.map((theme) => (theme === "stackoverflow" ? "en-US" : "en")));
    expect(pdfLanguage(await bytesOf("/me/resume?format=pdf", authorization))).toBe("en");
    expect(await wordLanguage(await bytesOf("/me/resume?format=docx", authorization))).toBeUndefined();
  });

  it("Japanese written in kanji alone is drawn in the Japanese family of the PDF when the profile says so", async () => {
    // By its script alone such a text reads as Chinese, and the PDF takes the Chinese family.
    const fontOf = (pdf: Uint8Array) =>
      /\/BaseFont \/[A-Z]{6}\+(NotoSans\w+)-/.exec(Buffer.from(pdf).toString("latin1"))?.[1];
    const unsaid = await personWith({ name: "山田太郎" }, "東京大学 工学部");
    expect(fontOf(await bytesOf("/me/resume?format=pdf", unsaid.authorization))).toBe("NotoSansSC");
    const japanese = await personWith({ name: "山田太郎", language: "ja" }, "東京大学 工学部");
    const pdf = await bytesOf("/me/resume?format=pdf", japanese.authorization);
    expect([fontOf(pdf), pdfLanguage(pdf)]).toEqual(["NotoSansJP", "ja"]);
    expect(await wordLanguage(await bytesOf("/me/resume?format=docx", japanese.authorization))).toBe(
      'w:eastAsia="ja"',
    );
  });

  it("is read from a JSON Resume import's meta, in its canonical form, and a bad one is a 400 at its path", async () => {
    const { authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    const document = { basics: { name: "João Silva" }, meta: { "x-resume": { language: "pt-br" } } };
    expect((await api.put("/me/resume?format=jsonresume", document)).status).toBe(200);
    expect((await api.get<{ language: string }>("/me/profile")).body.language).toBe("pt-BR");
    const refused = await api.put<{ issues: { path: string }[] }>("/me/resume?format=jsonresume", {
      ...document,
      meta: { "x-resume": { language: "Portuguese" } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues.map((issue) => issue.path)).toEqual(['meta["x-resume"].language']);
  });

  it("kept from an import, follows the profile: changed, cleared, or set aside for want of a profile", async () => {
    const { authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    type Exported = { meta?: { "x-resume"?: { language?: string; goalsSummary?: string } } };
    const exportedLanguage = async () =>
      (await api.get<Exported>("/me/resume?format=jsonresume")).body.meta?.["x-resume"]?.language;

    // Without basics there is no profile to keep them in: set aside, and not brought back by a later profile.
    const withoutBasics = { meta: { "x-resume": { language: "fr", goalsSummary: "Old goals" } } };
    const imported = await api.put<{ ignored: string[] }>("/me/resume?format=jsonresume", withoutBasics);
    expect(imported.body.ignored).toEqual(['meta["x-resume"].goalsSummary', 'meta["x-resume"].language']);
    expect((await api.put("/me/profile", { name: "Marie" })).status).toBe(200);
    const exported = await api.get<Exported>("/me/resume?format=jsonresume");
    expect(exported.body.meta?.["x-resume"]).not.toHaveProperty("language");
    expect(exported.body.meta?.["x-resume"]).not.toHaveProperty("goalsSummary");

    const document = { basics: { name: "Marie" }, meta: { "x-resume": { language: "fr" } } };
    expect((await api.put("/me/resume?format=jsonresume", document)).status).toBe(200);
    expect(await exportedLanguage()).toBe("fr");
    expect((await api.put("/me/profile", { name: "Marie", language: "fr-CA" })).status).toBe(200);
    expect(await exportedLanguage()).toBe("fr-CA");
    expect((await api.put("/me/profile", { name: "Marie" })).status).toBe(200);
    expect(await exportedLanguage()).toBeUndefined();
  });
});

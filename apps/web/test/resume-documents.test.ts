import mammoth from "mammoth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@app/resume";
import {
  docxOpenedByLibreOffice,
  docxPart,
  hasLibreOffice,
  hasPoppler,
  notdefGlyphsDrawn,
  pdfInfo,
  pdfText,
} from "../../../test/documents.ts";
import { httpClient, type HttpClient } from "../../../test/http-client.ts";
import { resumeCarrying } from "../../../test/hostile-text.ts";
import { newUser } from "../../../test/tokens.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

/**
 * The files people send (PDF, Word, plain text), read back with the tools a
 * recruiter's software uses: poppler, mammoth, LibreOffice.
 */
let web: WebServer;
let api: HttpClient;
let authorization: string;

const NAME = "Zoë Łukasiewicz-Ψηφίδα Дмитриевна";

/** Every field of the resume, in the order a reader meets them. */
const READING_ORDER = [
  NAME,
  "Payments engineer",
  "Kraków",
  "zoe@example.org",
  "github.com/zoe",
  "SUMMARY",
  "Ten years of ledgers.",
  "EXPERIENCE",
  "Staff Engineer — Newest Co",
  "Mar 2022 – Present",
  "Designed the double-entry ledger",
  "Cut settlement time by 40%",
  "Engineer — Oldest GmbH",
  "Jan 2015 – Feb 2022",
  "Contract",
  "Wrote the billing system",
  "EDUCATION",
  "MSc, Computer Science — Uniwersytet Jagielloński",
  "GPA 5.0",
  "Honors: Summa cum laude",
  "SKILLS",
  "Languages",
  "Go (expert, 8 yrs)",
  "CERTIFICATIONS",
  "Certified Kubernetes Administrator — CNCF",
  "Credential ID CKA-42",
  "credly.example/cka-42",
  "HOBBIES",
  "Chess",
  "Club games on Sundays",
  "GOALS",
  "Lead a platform team",
  "Run a marathon",
];

beforeAll(async () => {
  web = await startWebServer();
  authorization = (await newUser()).authorization;
  api = httpClient(web.url, { authorization });
  await api.put("/me/profile", {
    name: NAME,
    headline: "Payments engineer",
    summary: "Ten years of ledgers.",
    location: "Kraków",
    email: "zoe@example.org",
    links: { github: "https://github.com/zoe" },
    goals_summary: "Lead a platform team.",
  });
  // Older first: the resume lists jobs newest first whatever the order they were entered in.
  await api.post("/me/experience", {
    organization: "Oldest GmbH",
    title: "Engineer",
    employment_type: "contract",
    start_date: "2015-01-01",
    end_date: "2022-02-28",
    responsibilities: ["Wrote the billing system"],
  });
  await api.post("/me/experience", {
    organization: "Newest Co",
    title: "Staff Engineer",
    start_date: "2022-03-01",
    responsibilities: ["Designed the double-entry ledger"],
    accomplishments: ["Cut settlement time by 40%"],
  });
  await api.post("/me/education", {
    institution: "Uniwersytet Jagielloński",
    degree: "MSc",
    field_of_study: "Computer Science",
    start_date: "2010-10-01",
    end_date: "2014-06-30",
    gpa: "5.0",
    honors: "Summa cum laude",
  });
  await api.post("/me/skills", {
    name: "Go",
    category: "language",
    proficiency: "expert",
    years_experience: 8,
  });
  await api.post("/me/certifications", {
    name: "Certified Kubernetes Administrator",
    issuing_organization: "CNCF",
    issue_date: "2021-05-01",
    credential_id: "CKA-42",
    credential_url: "https://credly.example/cka-42",
  });
  await api.post("/me/hobbies", { name: "Chess", description: "Club games on Sundays" });
  await api.post("/me/goals", { description: "Run a marathon", category: "personal" });
});

afterAll(async () => {
  await web?.stop();
});

async function download(query: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${web.url}/me/resume?${query}`, { headers: { authorization, ...headers } });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** Asserts that each expected text appears in `text`, each after the one before. */
function expectInReadingOrder(text: string, expected: string[]) {
  const flat = text.replace(/\s+/g, " ");
  let from = 0;
  for (const part of expected) {
    const at = flat.indexOf(part, from);
    expect(at, `"${part}" after position ${from} in:\n${flat}`).toBeGreaterThanOrEqual(0);
    from = at + part.length;
  }
}

describe("GET /me/resume?format=pdf", () => {
  it.runIf(hasPoppler)(
    "is a PDF whose text holds every field in reading order, the name intact",
    async () => {
      const { response, bytes } = await download("format=pdf");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
      expect(response.headers.get("x-unrendered-characters")).toBeNull();
      expectInReadingOrder(await pdfText(bytes), READING_ORDER);
    },
  );

  it.runIf(hasPoppler)(
    "is A4 by default and 612 x 792 pt with paper=letter, titled and authored by the person, its links clickable",
    async () => {
      const a4 = await pdfInfo((await download("format=pdf")).bytes);
      expect(a4).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
      expect(a4).toMatch(new RegExp(`Title:\\s+${NAME}`));
      expect(a4).toMatch(new RegExp(`Author:\\s+${NAME}`));
      // Answered after the A4 one: the kept answer is the paper's own.
      const letter = await pdfInfo((await download("format=pdf&paper=letter")).bytes);
      expect(letter).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
      const links = await pdfInfo((await download("format=pdf")).bytes, "-url");
      for (const url of ["mailto:zoe@example.org", "https://github.com/zoe", "https://credly.example/cka-42"])
        expect(links).toContain(url);
    },
  );

  it.runIf(hasPoppler)(
    "is tagged: the name, sections and entries as headings, lists and links in reading order, all its text in the tree",
    async () => {
      const { bytes } = await download("format=pdf");
      const info = await pdfInfo(bytes);
      expect(info).toMatch(/Tagged:\s+yes/);
      // Tags are PDF 1.4 and later.
      expect(info).toMatch(/PDF version:\s+1\.[4-7]/);
      const tree = await pdfInfo(bytes, "-struct-text");
      // Each element's line, its text quoted on the lines under it.
      const elements = [...tree.matchAll(/^( *)(\w+)(?: \((?:block|inline)\))?\n((?:\1  +".*"\n)*)/gm)].map(
        ([, , type, text]) => ({ type, text: [...text!.matchAll(/"(.*)"/g)].map((m) => m[1]).join(" ") }),
      );
      const textsOf = (type: string) => elements.filter((e) => e.type === type).map((e) => e.text);
      expect(textsOf("H1")).toEqual([NAME]);
      expect(textsOf("H2")).toEqual([
        "SUMMARY",
        "EXPERIENCE",
        "EDUCATION",
        "SKILLS",
        "CERTIFICATIONS",
        "HOBBIES",
        "GOALS",
      ]);
      expect(textsOf("H3")).toContain("Staff Engineer — Newest Co");
      expect(textsOf("LBody")).toEqual(
        expect.arrayContaining(["Designed the double-entry ledger", "Cut settlement time by 40%"]),
      );
      expect(textsOf("Link")).toEqual(expect.arrayContaining(["zoe@example.org", "github: github.com/zoe"]));
      // The tree reads in the page's order, and holds every word the page shows but its separators.
      const treeText = elements.map((e) => e.text).join(" ");
      expectInReadingOrder(treeText, READING_ORDER);
      const words = (text: string) => text.split(/\s+/).filter((word) => word !== "" && word !== "·");
      const inTree = words(treeText);
      const untagged = words(await pdfText(bytes)).filter((word) => {
        const at = inTree.indexOf(word);
        if (at !== -1) inTree.splice(at, 1);
        return at === -1;
      });
      expect(untagged).toEqual([]);
    },
  );

  it.runIf(hasPoppler)("breaks pages between entries, never after a section's title", async () => {
    const { authorization: token } = await newUser();
    const jobs = Array.from({ length: 14 }, (_, i) => ({
      organization: `Org ${i}`,
      title: `Engineer ${i}`,
      start_date: `${2024 - i}-01-01`,
      responsibilities: Array.from(
        { length: 5 },
        (_, j) => `Duty ${j} of job ${i}: ${"kept the lights on ".repeat(6)}`,
      ),
      accomplishments: [`Last bullet of job ${i}`],
    }));
    const imported = await httpClient(web.url, { authorization: token }).put("/me/resume", {
      profile: { name: "Page Breaker", summary: "Long career." },
      experience: jobs,
      education: [{ institution: "School", degree: "BSc", start_date: "2000-01-01" }],
    });
    expect(imported.status, imported.text).toBe(200);
    const response = await fetch(`${web.url}/me/resume?format=pdf`, { headers: { authorization: token } });
    const pdf = new Uint8Array(await response.arrayBuffer());
    const pages = Number(/Pages:\s+(\d+)/.exec(await pdfInfo(pdf))![1]);
    expect(pages).toBeGreaterThanOrEqual(3);
    const texts = await Promise.all(
      Array.from({ length: pages }, (_, i) => pdfText(pdf, "-f", String(i + 1), "-l", String(i + 1))),
    );
    for (const [i] of jobs.entries()) {
      const page = texts.findIndex((text) => text.includes(`Engineer ${i} — Org ${i}`));
      expect(page, `job ${i}`).toBeGreaterThanOrEqual(0);
      expect(texts[page], `job ${i}'s last bullet on its heading's page`).toContain(
        `Last bullet of job ${i}`,
      );
    }
    for (const text of texts.slice(0, -1)) {
      const lines = text.split("\n").filter((line) => line.trim() !== "" && line.trim() !== "\f");
      expect(["SUMMARY", "EXPERIENCE", "EDUCATION"]).not.toContain(lines.at(-1)?.trim());
    }
  });

  it("is an attachment named after the person (RFC 6266), and HEAD answers its headers", async () => {
    const { response, bytes } = await download("format=pdf");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="Zoe-Lukasiewicz-resume.pdf"; filename*=UTF-8''${encodeURIComponent(
        "Zoë-Łukasiewicz-Ψηφίδα-Дмитриевна-resume.pdf",
      )}`,
    );
    const head = await fetch(`${web.url}/me/resume?format=pdf`, {
      method: "HEAD",
      headers: { authorization },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/pdf");
    expect(head.headers.get("content-disposition")).toBe(response.headers.get("content-disposition"));
    expect(Number(head.headers.get("content-length"))).toBe(bytes.length);
    expect(await head.text()).toBe("");
  });

  it("keeps the joiners of a name in filename* (an emoji sequence, a Persian name), other format characters not", async () => {
    // Before, every format character (Cf) was a hyphen: `👩-💻`, `علی-رضا`.
    const dispositionFor = async (name: string) => {
      const get = await personWith(
        { name },
        { organization: "Acme", title: "Engineer", start_date: "2020-01-15" },
      );
      const response = await get("docx");
      expect(response.status).toBe(200);
      return response.headers.get("content-disposition");
    };
    expect(await dispositionFor("Ada 👩\u200D💻")).toBe(
      `attachment; filename="Ada-resume.docx"; filename*=UTF-8''${encodeURIComponent("Ada-👩\u200D💻-resume.docx")}`,
    );
    expect(await dispositionFor("علی\u200Cرضا Ahmadi")).toBe(
      `attachment; filename="Ahmadi-resume.docx"; filename*=UTF-8''${encodeURIComponent("علی\u200Cرضا-Ahmadi-resume.docx")}`,
    );
    // A joiner at a word's edge joins nothing.
    expect(await dispositionFor("Ada \u200DLovelace\u200C")).toBe(
      `attachment; filename="Ada-Lovelace-resume.docx"; filename*=UTF-8''Ada-Lovelace-resume.docx`,
    );
    // A bidi override (U+202E) would show the name's end reversed: `…fdp.exe`.
    expect(await dispositionFor("Eve\u202Egnp.exe")).toBe(
      `attachment; filename="Eve-gnp.exe-resume.docx"; filename*=UTF-8''Eve-gnp.exe-resume.docx`,
    );
  });

  it("names the characters its fonts cannot draw instead of dropping them silently", async () => {
    const other = (await newUser()).authorization;
    // No family draws the crab (U+1F980) or an Egyptian hieroglyph (U+13000).
    await httpClient(web.url, { authorization: other }).put("/me/profile", { name: "Mei \u{13000}🦀 Ng" });
    const response = await fetch(`${web.url}/me/resume?format=pdf`, { headers: { authorization: other } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-unrendered-characters")).toBe("U+13000 U+1F980");
  });

  it("draws Chinese, Japanese and Korean, naming nothing", async () => {
    for (const name of ["Mei 漢字 Ng", "山田 ひらがな", "김민준"]) {
      const other = (await newUser()).authorization;
      await httpClient(web.url, { authorization: other }).put("/me/profile", { name });
      const response = await fetch(`${web.url}/me/resume?format=pdf`, { headers: { authorization: other } });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-unrendered-characters"), name).toBeNull();
      const pdf = new Uint8Array(await response.arrayBuffer());
      expect(notdefGlyphsDrawn(pdf), name).toBe(0);
      if (hasPoppler) expect(await pdfText(pdf)).toContain(name);
    }
  });

  it("does not name the bidi marks it rightly draws as nothing (isolates, the Arabic letter mark)", async () => {
    const other = (await newUser()).authorization;
    await httpClient(web.url, { authorization: other }).put("/me/profile", {
      name: "\u2068Dana Levi\u2069",
      headline: "Title: \u2067מפתח בכיר\u2069 · \u061C١٢٣",
      links: {},
    });
    const response = await fetch(`${web.url}/me/resume?format=pdf`, { headers: { authorization: other } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-unrendered-characters")).toBeNull();
    expect(notdefGlyphsDrawn(new Uint8Array(await response.arrayBuffer()))).toBe(0);
  });
});

describe("the editor's session cookie", () => {
  it("signs in GET and HEAD /me/resume (the Download menu), and no other REST route", async () => {
    const cookie = `resume_session=${authorization.replace(/^Bearer /, "")}`;
    const text = await fetch(`${web.url}/me/resume?format=text`, { headers: { cookie } });
    expect(text.status).toBe(200);
    expect(await text.text()).toContain(NAME);
    expect(
      (await fetch(`${web.url}/me/resume?format=pdf`, { method: "HEAD", headers: { cookie } })).status,
    ).toBe(200);
    for (const [method, path] of [
      ["GET", "/me/profile"],
      ["GET", "/me/skills"],
      ["POST", "/me/skills"],
      ["PUT", "/me/resume"],
    ]) {
      const refused = await fetch(`${web.url}${path}`, {
        method,
        headers: { cookie, "content-type": "application/json" },
        body: method === "GET" ? undefined : "{}",
      });
      expect(refused.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe("the contact line of the PDF", () => {
  it.runIf(hasPoppler)(
    "breaks between its parts, never inside one: a name stays with its address, an address whole",
    async () => {
      const person = (await newUser()).authorization;
      const links = {
        github: "https://github.com/zoe-lukasiewicz",
        linkedin: "https://www.linkedin.com/in/zoe-lukasiewicz-nunez",
        mastodon: "https://mastodon.social/@zoe-lukasiewicz-nunez",
      };
      await httpClient(web.url, { authorization: person }).put("/me/profile", {
        name: "Zoë Łukasiewicz-Núñez",
        location: "Oranienstraße 12",
        city: "Berlin",
        region: "Berlin",
        postal_code: "10435",
        country_code: "DE",
        email: "zoe.lukasiewicz-nunez@example.org",
        phone: "+49 30 1234 5678",
        links,
      });
      const pdf = await fetch(`${web.url}/me/resume?format=pdf`, { headers: { authorization: person } });
      const lines = (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).split("\n");
      // Each part whole on its line: before, "mastodon:" ended a line and its address began the next,
      // and with other widths an address broke at its own hyphen ("@zoe-"), which pdftotext joins.
      for (const part of [
        ...Object.entries(links).map(([name, url]) => `${name}: ${url.replace("https://", "")}`),
        "zoe.lukasiewicz-nunez@example.org",
      ])
        expect(lines).toContainEqual(expect.stringContaining(part));
    },
  );
});

describe("GET /me/resume?format=docx", () => {
  it("is a Word document mammoth reads every field of, with heading styles, list items and hyperlinks", async () => {
    const { response, bytes } = await download("format=docx");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    );
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="Zoe-Lukasiewicz-resume\.docx"/,
    );
    const { value: text, messages } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    expect(messages).toEqual([]);
    expectInReadingOrder(
      text,
      READING_ORDER.map((part) =>
        /^[A-Z]+$/.test(part) ? part.charAt(0) + part.slice(1).toLowerCase() : part,
      ),
    );
    const xml = await docxPart(bytes, "word/document.xml");
    expect(xml).toContain('<w:pStyle w:val="Title"/>');
    expect(xml).toContain('<w:pStyle w:val="Heading1"/>');
    expect(xml).toContain('<w:pStyle w:val="Heading2"/>');
    // The jobs' three bullets and the degree's honors.
    expect(xml.match(/<w:numPr>/g)?.length).toBe(4);
    expect(xml.match(/<w:hyperlink /g)?.length).toBe(3);
    // Word's File > Info: the person, as author and as the last to modify it (docx's default is "Un-named").
    const core = await docxPart(bytes, "docProps/core.xml");
    expect(core).toContain(`<dc:creator>${NAME}</dc:creator>`);
    expect(core).toContain(`<cp:lastModifiedBy>${NAME}</cp:lastModifiedBy>`);
  });

  it.runIf(hasLibreOffice && hasPoppler)(
    "opens in LibreOffice, which finds the same text",
    { timeout: 120_000 },
    async () => {
      const { bytes } = await download("format=docx&paper=letter");
      expectInReadingOrder(await docxOpenedByLibreOffice(bytes), [
        NAME,
        "Staff Engineer — Newest Co",
        "Run a marathon",
      ]);
    },
  );

  it.runIf(hasLibreOffice && hasPoppler)(
    "keeps an entry's dates on one line when its heading leaves them no room, as LibreOffice lays it out",
    { timeout: 120_000 },
    async () => {
      const person = (await newUser()).authorization;
      const long = httpClient(web.url, { authorization: person });
      await long.put("/me/profile", { name: "Lena Long" });
      await long.post("/me/experience", {
        organization: "Newest Company Ltd",
        title: "Engineering Manager, Payments and Ledger Platform",
        start_date: "2008-10-01",
        end_date: "2010-12-31",
      });
      const docx = await fetch(`${web.url}/me/resume?format=docx`, { headers: { authorization: person } });
      const lines = (await docxOpenedByLibreOffice(new Uint8Array(await docx.arrayBuffer()))).split("\n");
      // Before, "Oct" ended the heading's line and "2008 – Dec 2010" began the next.
      expect(lines).toContainEqual(expect.stringContaining("Oct 2008 – Dec 2010"));
    },
  );
});

describe("GET /me/resume?format=text", () => {
  it("is plain text for forms: every field in order, no markup, lines of at most 100 characters", async () => {
    const long = httpClient(web.url, { authorization: (await newUser()).authorization });
    await long.put("/me/profile", {
      name: "Ada Lovelace",
      summary: `${"analytical ".repeat(60)}${"x".repeat(150)}`,
    });
    const mine = await api.get("/me/resume?format=text");
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(mine.headers.get("content-disposition")).toBeNull();
    expectInReadingOrder(mine.text, READING_ORDER);
    expect(mine.text).not.toMatch(/\*\*|^#|\]\(/m);
    expect(mine.text).toMatch(/\n\nEngineer — Oldest GmbH\n/);

    const text = (await long.get("/me/resume?format=text")).text;
    for (const line of text.split("\n")) expect(Array.from(line).length).toBeLessThanOrEqual(100);
    expect(text.replace(/\s+/g, "")).toContain(`${"analytical".repeat(60)}${"x".repeat(150)}`);
  });
});

describe("the editor's preview (the Markdown) and the files", () => {
  it("have their sections in one order, so what the preview shows is what the PDF sends", async () => {
    const markdown = (await api.get("/me/resume?format=markdown")).text;
    const previewSections = [...markdown.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.toUpperCase());
    const fileSections = READING_ORDER.filter((text) => /^[A-Z]+$/.test(text));
    expect(previewSections).toEqual(fileSections);
  });
});

describe("where documents are made", () => {
  it(
    "on the request's thread (DOCUMENT_WORKERS=0) they hold what they hold on a worker thread",
    { timeout: 90_000 },
    async () => {
      const inline = await startWebServer({ DOCUMENT_WORKERS: "0" });
      try {
        for (const format of ["text", "docx", "pdf"]) {
          const [onWorker, onRequestThread] = await Promise.all(
            [web, inline].map(async (server) => {
              const response = await fetch(`${server.url}/me/resume?format=${format}`, {
                headers: { authorization },
              });
              expect(response.status, format).toBe(200);
              return Buffer.from(await response.arrayBuffer());
            }),
          );
          if (format === "text") expect(onRequestThread!.toString()).toBe(onWorker!.toString());
          if (format === "docx")
            expect((await mammoth.extractRawText({ buffer: onRequestThread! })).value).toBe(
              (await mammoth.extractRawText({ buffer: onWorker! })).value,
            );
          if (format === "pdf" && hasPoppler)
            expect(await pdfText(onRequestThread!)).toBe(await pdfText(onWorker!));
        }
      } finally {
        await inline.stop();
      }
    },
  );
});

describe("text no document format expects", () => {
  it("in every field (XML and PDF syntax, control characters, bidi marks) makes files that open, holding it as text", async () => {
    const hostile = "</w:t><w:p>&amp; \"'<b>) Tj (\\ \u0001\u000b\u001f\u007f\u202e reversed";
    const { authorization: token } = await newUser();
    const imported = await httpClient(web.url, { authorization: token }).put(
      "/me/resume",
      resumeCarrying(hostile),
    );
    expect(imported.status, imported.text).toBe(200);
    const get = (format: string) =>
      fetch(`${web.url}/me/resume?format=${format}`, { headers: { authorization: token } });
    const docx = new Uint8Array(await (await get("docx")).arrayBuffer());
    const { value, messages } = await mammoth.extractRawText({ buffer: Buffer.from(docx) });
    expect(messages).toEqual([]);
    expect(value).toContain("</w:t><w:p>&amp; \"'<b>) Tj (\\ \u202e reversed");
    if (hasLibreOffice && hasPoppler) expect(await docxOpenedByLibreOffice(docx)).toContain("Tj");
    const pdf = await get("pdf");
    expect(pdf.status).toBe(200);
    if (hasPoppler) expect(await pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain(") Tj (");
    const text = await (await get("text")).text();
    expect(text).toContain("</w:t><w:p>&amp;");
    expect(text).not.toMatch(/(?!\n)\p{Cc}/u);
  }, 120_000);
});

/** A new person with this profile and one job; `get(format)` fetches their resume in a format. */
async function personWith(profile: object, job: object, skills: object[] = []) {
  const { authorization } = await newUser();
  const client = httpClient(web.url, { authorization });
  expect((await client.put("/me/profile", profile)).status).toBe(200);
  expect((await client.post("/me/experience", job)).status).toBe(201);
  for (const skill of skills) expect((await client.post("/me/skills", skill)).status).toBe(201);
  return (format: string) => fetch(`${web.url}/me/resume?format=${format}`, { headers: { authorization } });
}

describe("tabs, carriage returns and line separators", () => {
  it("print as spaces and line breaks (a textarea's CRLF, U+2028 too), never as the PDF font's empty box", async () => {
    const get = await personWith(
      { name: "Judy Tab", headline: "Dev\tOps", summary: "Line one\r\nLine two\rLine three\u2028Line four" },
      {
        organization: "Acme",
        title: "Engineer",
        start_date: "2020-01-15",
        responsibilities: ["Did\ta thing", "Led one team\r\nthen another"],
      },
    );
    const pdf = new Uint8Array(await (await get("pdf")).arrayBuffer());
    expect(notdefGlyphsDrawn(pdf)).toBe(0);
    if (hasPoppler) expect(await pdfText(pdf)).toContain("Line one\nLine two\nLine three\nLine four");
    // Unicode's line separator is a line break in every document, not a space in plain text.
    const text = await (await get("text")).text();
    expect(text).toContain("Line one\nLine two\nLine three\nLine four");
    expect(text).not.toMatch(/[\r\u2028]/);
    const { value } = await mammoth.extractRawText({
      buffer: Buffer.from(await (await get("docx")).arrayBuffer()),
    });
    expect(value).toMatch(/Line three\n+Line four/);
    // A list item's lines, each after a line break of Word's own: in a text run, Word shows a space.
    const word = await docxPart(new Uint8Array(await (await get("docx")).arrayBuffer()), "word/document.xml");
    expect(word).toMatch(/>Led one team<\/w:t><\/w:r><w:r><w:br\/><w:t[^>]*>then another</);
    expect(word).not.toMatch(/<w:t[^>]*>[^<]*[\r\n]/);
  });
});

describe("right-to-left text in the PDF", () => {
  // pdftotext -raw gives a line's words in the order they are drawn, left to right, each word's
  // letters in reading order between its own bidi marks (dropped here).
  const drawnLines = async (pdf: Uint8Array) =>
    (await pdfText(pdf, "-raw")).replace(/[\u202A-\u202E]/g, "").split("\n");

  it.skipIf(!hasPoppler)(
    "draws Hebrew and Arabic words right to left, mixed lines by the Unicode bidi rules",
    async () => {
      const get = await personWith(
        {
          name: "דוד כהן",
          headline: "Hello שלום world.",
          summary: "אני מפתח ב-TypeScript\nمرحبا بالعالم",
        },
        { organization: "Acme", title: "מהנדס תוכנה", start_date: "2020-01-15" },
      );
      const pdf = new Uint8Array(await (await get("pdf")).arrayBuffer());
      expect(notdefGlyphsDrawn(pdf)).toBe(0);
      const lines = await drawnLines(pdf);
      expect(lines).toEqual(
        expect.arrayContaining([
          "כהן דוד",
          "Hello שלום world.",
          "TypeScript-ב מפתח אני",
          "بالعالم مرحبا",
          "Acme — תוכנה מהנדס Jan 2020 – Present",
        ]),
      );
    },
  );

  it.skipIf(!hasPoppler)("keeps a blank line of right-to-left free text as a line", async () => {
    const get = await personWith(
      { name: "Blank Lines", summary: "שלום\nעולם\n\nסוף" },
      { organization: "Acme", title: "Engineer", start_date: "2020-01-15" },
    );
    const pdf = new Uint8Array(await (await get("pdf")).arrayBuffer());
    const boxes = await pdfText(pdf, "-bbox");
    // Each word as drawn: a right-to-left one's letters last first.
    const top = (word: string) => {
      const drawn = [...word].reverse().join("");
      const found = new RegExp(`<word [^>]*yMin="([\\d.]+)"[^>]*>${drawn}</word>`).exec(boxes);
      expect(found, word).not.toBeNull();
      return Number(found![1]);
    };
    const line = top("עולם") - top("שלום");
    expect(line).toBeGreaterThan(5);
    expect(top("סוף") - top("עולם")).toBeCloseTo(2 * line, 0);
  });

  it.skipIf(!hasPoppler)(
    "draws each entry's heading before its dates, so a reader of the drawn order finds the title first",
    async () => {
      const get = await personWith(
        { name: "Drawn Order" },
        { organization: "Acme", title: "Engineer", start_date: "2020-01-15", end_date: "2022-06-30" },
      );
      const lines = await drawnLines(new Uint8Array(await (await get("pdf")).arrayBuffer()));
      // On the page the dates stand right of the heading, on its line: read in drawn order, after it.
      expect(lines).toContain("Engineer — Acme Jan 2020 – Jun 2022");
    },
  );
});

describe("line breaks in one-line fields", () => {
  it("print as spaces in every document: a name, place or title never runs over several lines", async () => {
    const get = await personWith(
      { name: "Alice\n# Evil\n- item", location: "Kraków\nPoland", summary: "One\nTwo" },
      { organization: "Acme\nCorp", title: "Engi\r\nneer", start_date: "2020-01-15" },
      [{ name: "Go\n**x**", category: "language", keywords: ["a\rb"] }],
    );
    const text = await (await get("text")).text();
    expect(text.split("\n").slice(0, 2)).toEqual(["Alice # Evil - item", "Kraków Poland"]);
    expect(text).toContain("Engi neer — Acme Corp");
    // A skill's name and keywords, though its group's line is free text.
    expect(text).toContain("Go **x** (intermediate: a b)");
    expect(text).toContain("One\nTwo"); // free text keeps its lines
    const { value } = await mammoth.extractRawText({
      buffer: Buffer.from(await (await get("docx")).arrayBuffer()),
    });
    expect(value).toContain("Alice # Evil - item");
    if (hasPoppler) {
      const pdf = await pdfText(new Uint8Array(await (await get("pdf")).arrayBuffer()));
      expect(pdf.split("\n")[0]).toBe("Alice # Evil - item");
    }
  });
});

describe("a resume at the limits", () => {
  it(
    "of 200 entries in every collection, every line at its longest, makes every document, the PDF to its last entry",
    {
      timeout: 120_000,
    },
    async () => {
      const { authorization: token } = await newUser();
      const line = (label: string, i: number) =>
        `${label} ${i} ${"x".repeat(LIMITS.nameLength - 12)}`.slice(0, LIMITS.nameLength);
      const entries = LIMITS.entriesPerCollection;
      const long = "word ".repeat(550).trim();
      const resume = {
        profile: { name: "At The Limits", summary: long, goals_summary: long },
        experience: Array.from({ length: entries }, (_, i) => ({
          organization: line("Org", i),
          title: line("Title", i),
          location: line("Place", i),
          start_date: "2020-01-01",
          responsibilities: [line("Duty", i)],
        })),
        education: Array.from({ length: entries }, (_, i) => ({
          institution: line("School", i),
          degree: line("Degree", i),
          start_date: "2010-01-01",
        })),
        skills: Array.from({ length: entries }, (_, i) => ({ name: line("Skill", i), category: "tool" })),
        certifications: Array.from({ length: entries }, (_, i) => ({
          name: line("Cert", i),
          issuing_organization: line("Issuer", i),
          issue_date: "2020-01-01",
        })),
        hobbies: Array.from({ length: entries }, (_, i) => ({
          name: line("Hobby", i),
          description: line("About", i),
        })),
        goals: Array.from({ length: entries }, (_, i) => ({
          description: `${i === entries - 1 ? "THE LAST GOAL " : ""}${line("Goal", i)}`,
          category: "career",
        })),
      };
      const imported = await httpClient(web.url, { authorization: token }).put("/me/resume", resume);
      expect(imported.status, imported.text).toBe(200);
      for (const format of ["text", "docx", "pdf"]) {
        const response = await fetch(`${web.url}/me/resume?format=${format}`, {
          headers: { authorization: token },
        });
        expect(response.status, format).toBe(200);
        const bytes = new Uint8Array(await response.arrayBuffer());
        if (format === "text") {
          expect(bytes.length).toBeGreaterThan(400_000);
          expect(new TextDecoder().decode(bytes)).toContain("THE LAST GOAL");
        }
        if (format === "docx")
          expect((await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value).toContain(
            "THE LAST GOAL",
          );
        if (format === "pdf" && hasPoppler) expect(await pdfText(bytes)).toContain("THE LAST GOAL");
      }
    },
  );
});

describe("a resume past what a document holds", () => {
  it("answers 422 RESUME_TOO_LONG for pdf, docx and text, and Markdown in full", async () => {
    const big = httpClient(web.url, { authorization: (await newUser()).authorization });
    // 200 hobbies (the most there may be) of the longest description, and a summary: just past the limit.
    const description = "word ".repeat(1000).trim();
    const hobbies = LIMITS.entriesPerCollection;
    const summary = "summary ".repeat(600).trim();
    expect(hobbies * description.length + summary.length).toBeGreaterThan(LIMITS.documentTextLength);
    const imported = await big.put("/me/resume", {
      profile: { name: "Long Writer", summary },
      hobbies: Array.from({ length: hobbies }, (_, i) => ({ name: `Hobby ${i}`, description })),
    });
    expect(imported.status, imported.text).toBe(200);
    for (const format of ["pdf", "docx", "text"]) {
      const refused = await big.get(`/me/resume?format=${format}`);
      expect(refused.status, format).toBe(422);
      expect(refused.body).toMatchObject({ statusCode: 422, error: "RESUME_TOO_LONG" });
    }
    expect((await big.get("/me/resume?format=markdown")).text).toContain(`Hobby ${hobbies - 1}`);
  });

  it("counts the limit in characters: 600,000 emoji (1,200,000 UTF-16 units) are within it", async () => {
    const emoji = httpClient(web.url, { authorization: (await newUser()).authorization });
    await emoji.put("/me/profile", { name: "Emoji Writer" });
    // Written one by one: as UTF-8 they are 2.4 MB, past an import's body limit.
    const description = "😀".repeat(3000);
    for (let i = 0; i < LIMITS.entriesPerCollection; i += 1)
      expect((await emoji.post("/me/hobbies", { name: `Hobby ${i}`, description })).status).toBe(201);
    const text = await emoji.get("/me/resume?format=text");
    expect(text.status, text.text.slice(0, 200)).toBe(200);
    expect(text.text).toContain(`Hobby ${LIMITS.entriesPerCollection - 1}`);
  });
});

describe("a long resume's themed page", () => {
  it("is made off the request thread: the server answers /livez all the while", async () => {
    const { authorization: long } = await newUser();
    const client = httpClient(web.url, { authorization: long });
    await client.put("/me/profile", { name: "Long Resume" });
    // 200 jobs of 50 bullets of about 1,000 characters: 10 MB of text, seconds of the theme's work.
    const bullets = (job: number) =>
      Array.from({ length: 50 }, (_, i) => `${"Shipped a payments service. ".repeat(35)}${job}-${i}`);
    for (let job = 0; job < 200; job += 1) {
      const created = await client.post("/me/experience", {
        organization: `Org ${job}`,
        title: "Engineer",
        start_date: "2020-01-01",
        responsibilities: bullets(job),
      });
      expect(created.status).toBe(201);
    }
    let pending = true;
    const page = fetch(`${web.url}/me/resume?format=html`, { headers: { authorization: long } }).then(
      async (response) => {
        pending = false;
        return { status: response.status, length: (await response.text()).length };
      },
    );
    // Made on the request thread, the page held every /livez sent meanwhile back until it was done (3 s here).
    let answered = 0;
    let slowest = 0;
    // Each /livez sent while the page is being made counts, however late its answer.
    while (pending) {
      const started = performance.now();
      expect((await fetch(`${web.url}/livez`)).status).toBe(200);
      answered += 1;
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await page).toMatchObject({ status: 200 });
    expect((await page).length).toBeGreaterThan(9_000_000);
    expect(answered).toBeGreaterThanOrEqual(3);
    expect(slowest).toBeLessThan(1_000);
  }, 120_000);
});

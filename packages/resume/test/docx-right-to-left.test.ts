import { describe, expect, it } from "vitest";
import { renderResumeDocx } from "../src/documents/render-resume-docx.ts";
import type { OutlineEntry, ResumeOutline } from "../src/documents/resume-outline.ts";
import { docxPart } from "../../../test/documents.ts";

const entry = (fields: Partial<OutlineEntry> & { heading: string }): OutlineEntry => ({
  dates: null,
  details: [],
  text: null,
  bullets: [],
  link: null,
  ...fields,
});

/** Every part of the Word file, in English only. */
const ENGLISH: ResumeOutline = {
  name: "Zoe Lukasiewicz",
  language: null,
  headline: "Senior engineer",
  contact: [
    { text: "Berlin, DE" },
    { text: "zoe@example.org", url: "mailto:zoe@example.org" },
    { text: "+49 30 1234567", url: "tel:+49301234567" },
    { text: "github: github.com/zoe", url: "https://github.com/zoe" },
  ],
  sections: [
    { title: "Summary", paragraphs: ["I build TypeScript services.\n\nAnd write about them."], entries: [] },
    {
      title: "Experience",
      paragraphs: [],
      entries: [
        entry({
          heading: "Senior Engineer — Acme",
          dates: "Jan 2020 – Present",
          details: ["Berlin", "Contract"],
          bullets: ["Led a team of 5 (React Native)", "Cut build times\nfrom 10 to 2 minutes"],
        }),
      ],
    },
    {
      title: "Certifications",
      paragraphs: [],
      entries: [
        entry({
          heading: "CKA — CNCF",
          dates: "Issued Mar 2021",
          details: ["Credential ID 123"],
          text: "Kubernetes administration",
          link: { text: "Verify: example.org/cka", url: "https://example.org/cka" },
        }),
      ],
    },
  ],
};

/** Hebrew and Arabic paragraphs, and English ones with a Hebrew word in them. */
const RIGHT_TO_LEFT: ResumeOutline = {
  name: "דנה לוי",
  language: null,
  headline: "Full-stack developer",
  contact: [
    { text: "תל אביב, IL" },
    { text: "dana@example.co.il", url: "mailto:dana@example.co.il" },
    { text: "github: github.com/dana", url: "https://github.com/dana" },
  ],
  sections: [
    {
      title: "Summary",
      paragraphs: ["אני מפתחת ב-TypeScript מאז 2015, עם ניסיון של 10 שנים.\nI also write in English, שלום."],
      entries: [],
    },
    {
      title: "Experience",
      paragraphs: [],
      entries: [
        entry({
          heading: "מפתחת בכירה — Wix",
          dates: "Jan 2020 – Present",
          details: ["תל אביב", "Contract"],
          bullets: [
            "בניתי אפליקציה ב-React Native (iOS ו-Android).",
            "Led a team of 5 (חמישה)",
            "2019: مطورة برمجيات في دبي\nسطر ثان",
          ],
        }),
        entry({
          heading: "Developer — Acme",
          text: "10 عاماً",
          link: { text: "קישור: example.org", url: "https://example.org" },
        }),
      ],
    },
  ],
};

interface WordParagraph {
  text: string;
  bidi: boolean;
  runs: { text: string; rtl: boolean }[];
}

/** The paragraphs of the Word file's body: their text, whether each is right-to-left (w:bidi), and their runs. */
async function paragraphsOf(outline: ResumeOutline): Promise<WordParagraph[]> {
  const xml = await docxPart(new Uint8Array(await renderResumeDocx(outline, "a4")), "word/document.xml");
  return [...xml.matchAll(/<w:p>([\s\S]*?)<\/w:p>/g)].map(([, paragraph]) => {
    const runs = [...paragraph!.matchAll(/<w:r>([\s\S]*?)<\/w:r>/g)].map(([, run]) => ({
      text: [...run!.matchAll(/<w:(t|br)\b[^>]*?(?:\/>|>([^<]*)<\/w:t>)/g)]
        .map(([, element, text]) => (element === "br" ? "\n" : text))
        .join(""),
      rtl: /<w:rtl\/>/.test(run!),
    }));
    return {
      text: runs.map((run) => run.text).join(""),
      bidi: /<w:pPr>[\s\S]*<w:bidi\/>[\s\S]*<\/w:pPr>/.test(paragraph!),
      runs,
    };
  });
}

const RIGHT_TO_LEFT_LETTER = /[\u0590-\u08FF]/;

describe("right-to-left text in the Word file", () => {
  it("makes exactly the paragraphs whose first letter of a strong direction is Hebrew or Arabic right-to-left", async () => {
    const paragraphs = await paragraphsOf(RIGHT_TO_LEFT);
    expect(paragraphs.map(({ text, bidi }) => [text, bidi])).toEqual([
      ["דנה לוי", true],
      ["Full-stack developer", false],
      ["תל אביב, IL  ·  dana@example.co.il  ·  github: github.com/dana", true],
      ["Summary", false],
      ["אני מפתחת ב-TypeScript מאז 2015, עם ניסיון של 10 שנים.", true],
      ["I also write in English, שלום.", false],
      ["Experience", false],
      ["מפתחת בכירה — Wix\tJan\u00A02020\u00A0–\u00A0Present", true],
      ["תל אביב · Contract", true],
      ["בניתי אפליקציה ב-React Native (iOS ו-Android).", true],
      ["Led a team of 5 (חמישה)", false],
      ["2019: مطورة برمجيات في دبي\nسطر ثان", true],
      ["Developer — Acme", false],
      ["10 عاماً", true],
      ["קישור: example.org", true],
    ]);
  });

  it("marks the right-to-left stretches of a right-to-left paragraph (w:rtl), and its English words not", async () => {
    const paragraphs = await paragraphsOf(RIGHT_TO_LEFT);
    for (const { text, bidi, runs } of paragraphs) {
      for (const run of runs) {
        // Word reads the spaces and punctuation of a run marked right-to-left as right-to-left:
        // "React Native" in such a run would show as "Native React".
        if (!bidi || /[A-Za-z]/.test(run.text)) expect(run.rtl, `${run.text} in ${text}`).toBe(false);
        if (RIGHT_TO_LEFT_LETTER.test(run.text)) expect(run.rtl, `${run.text} in ${text}`).toBe(bidi);
      }
    }
    const runsOf = (start: string) => paragraphs.find(({ text }) => text.startsWith(start))!.runs;
    expect(runsOf("אני מפתחת")).toEqual([
      { text: "אני מפתחת ב-", rtl: true },
      { text: "TypeScript", rtl: false },
      { text: " מאז ", rtl: true },
      { text: "2015", rtl: false },
      { text: ", עם ניסיון של ", rtl: true },
      { text: "10", rtl: false },
      { text: " שנים.", rtl: true },
    ]);
    expect(runsOf("בניתי")).toEqual([
      { text: "בניתי אפליקציה ב-", rtl: true },
      { text: "React Native", rtl: false },
      { text: " (", rtl: true },
      { text: "iOS", rtl: false },
      { text: " ו-", rtl: true },
      { text: "Android", rtl: false },
      { text: ").", rtl: true },
    ]);
    // A list item's lines are one paragraph: its line break stays in its place.
    expect(runsOf("2019")).toEqual([
      { text: "2019", rtl: false },
      { text: ": مطورة برمجيات في دبي", rtl: true },
      { text: "\nسطر ثان", rtl: true },
    ]);
  });

  it("keeps a link whole, its right-to-left stretches marked inside it", async () => {
    const xml = await docxPart(
      new Uint8Array(await renderResumeDocx(RIGHT_TO_LEFT, "a4")),
      "word/document.xml",
    );
    const links = [...xml.matchAll(/<w:hyperlink\b[^>]*>([\s\S]*?)<\/w:hyperlink>/g)].map(([, link]) =>
      [...link!.matchAll(/<w:r>([\s\S]*?)<\/w:r>/g)].map(([, run]) => ({
        text: /<w:t[^>]*>([^<]*)<\/w:t>/.exec(run!)![1],
        rtl: /<w:rtl\/>/.test(run!),
        style: /<w:rStyle w:val="Hyperlink"\/>/.test(run!),
      })),
    );
    expect(links).toEqual([
      [{ text: "dana@example.co.il", rtl: false, style: true }],
      [{ text: "github: github.com/dana", rtl: false, style: true }],
      [
        { text: "קישור: ", rtl: true, style: true },
        { text: "example.org", rtl: false, style: true },
      ],
    ]);
  });

  it("leaves a resume without right-to-left text as it was, byte for byte", async () => {
    const xml = await docxPart(new Uint8Array(await renderResumeDocx(ENGLISH, "a4")), "word/document.xml");
    expect(xml).not.toMatch(/<w:bidi\/>|<w:rtl\/>/);
    // docx names each hyperlink's relationship at random; one tag a line, for a readable diff.
    let link = 0;
    const normalised = xml.replace(/r:id="rId[^"]*"/g, () => `r:id="link${++link}"`).replaceAll("><", ">\n<");
    // Written by the Word renderer before right-to-left paragraphs; `vitest -u` writes it anew.
    await expect(normalised).toMatchFileSnapshot("./fixtures/english-resume-document.xml");
  });
});

import { describe, expect, it } from "vitest";
import { pdfFontFamilyFor } from "../src/documents/document-fonts.ts";
import { renderResumePdf } from "../src/documents/render-resume-pdf.ts";
import type { ResumeOutline } from "../src/documents/resume-outline.ts";
import { hasPoppler, notdefGlyphsDrawn, pdfText } from "../../../test/documents.ts";

/** A one-job resume in the words given, with an English address and dates beside them. */
const resumeIn = (name: string, headline: string, heading: string, bullet: string): ResumeOutline => ({
  name,
  language: null,
  headline,
  contact: [{ text: "someone@example.org", url: "mailto:someone@example.org" }],
  sections: [
    {
      title: "Experience",
      paragraphs: [],
      entries: [
        { heading, dates: "Jan 2020 – Present", details: [], text: null, bullets: [bullet], link: null },
      ],
    },
  ],
});

/** The fonts a PDF embeds, by their PostScript names (pdfkit writes its font dictionaries uncompressed). */
const embeddedFonts = (pdf: Uint8Array) =>
  [
    ...new Set(
      [
        ...Buffer.from(pdf)
          .toString("latin1")
          .matchAll(/\/BaseFont \/[A-Z]{6}\+([\w-]+)/g),
      ].map(([, name]) => name),
    ),
  ].sort();

const RESUMES = [
  {
    language: "Chinese",
    resume: resumeIn("王小明", "高级软件工程师", "软件工程师 — 字节跳动", "负责推荐系统的后端开发。"),
    family: "NotoSansSC",
  },
  {
    language: "Japanese",
    resume: resumeIn(
      "山田 太郎",
      "ソフトウェアエンジニア",
      "エンジニア — 株式会社メルカリ",
      "決済システムの開発を担当。",
    ),
    family: "NotoSansJP",
  },
  {
    language: "Korean",
    resume: resumeIn("김민준", "소프트웨어 엔지니어", "엔지니어 — 네이버", "검색 시스템의 백엔드 개발."),
    family: "NotoSansKR",
  },
];

describe("a PDF in Chinese, Japanese or Korean", () => {
  for (const { language, resume, family } of RESUMES) {
    it(`in ${language} is drawn in ${family}, every character a glyph, none named as undrawn`, async () => {
      const pdf = await renderResumePdf(resume, "a4");
      expect(embeddedFonts(pdf)).toEqual([`${family}-Bold`, `${family}-Regular`]);
      expect(notdefGlyphsDrawn(pdf)).toBe(0);
      expect(pdfFontFamilyFor([resume.name, resume.headline!]).unrendered).toEqual([]);
    });

    it.runIf(hasPoppler)(`in ${language} reads back as its text, the English beside it too`, async () => {
      const text = await pdfText(await renderResumePdf(resume, "a4"));
      const entry = resume.sections[0]!.entries[0]!;
      for (const expected of [resume.name, resume.headline!, entry.heading, entry.bullets[0]!, "Jan 2020"])
        expect(text).toContain(expected);
    });
  }

  it("in Latin letters alone is drawn in DejaVu Sans, as before", async () => {
    const pdf = await renderResumePdf(
      resumeIn("Zoë Łukasiewicz", "Engineer", "Engineer — Acme", "Built it."),
      "a4",
    );
    expect(embeddedFonts(pdf)).toEqual(["DejaVuSans", "DejaVuSans-Bold"]);
  });

  it("whose text no one family draws is drawn in the family that draws most, naming the rest", () => {
    // DejaVu draws Hebrew and not 王; the Noto families draw 王 and no Hebrew.
    expect(pdfFontFamilyFor(["王 and שלום עולם"])).toMatchObject({
      family: { regular: { postscriptName: "DejaVuSans" } },
      unrendered: ["U+738B"],
    });
    // Here the Noto family draws more of the distinct characters, and the Hebrew is what is named.
    const chinese = pdfFontFamilyFor(["王小明 高级软件工程师 שלום"]);
    expect(chinese.family.regular.postscriptName).toBe("NotoSansSC-Regular");
    expect(chinese.unrendered).toEqual(["U+05D5", "U+05DC", "U+05DD", "U+05E9"]);
    expect(pdfFontFamilyFor(["Crab 🦀"]).unrendered).toEqual(["U+1F980"]);
  });

  it("in English with a Chinese name is drawn in Noto Sans JP, whose apostrophes and middle dots stay narrow", () => {
    const { family, unrendered } = pdfFontFamilyFor(["Mei Lin 林美", "Ada’s team · “Payments”"]);
    expect(family.regular.postscriptName).toBe("NotoSansJP-Regular");
    expect(unrendered).toEqual([]);
    // SC sets them an em wide, as Chinese type does: "Ada’s" with a gap.
    const widths = family.regular
      .layout("’·“")
      .positions.map(({ xAdvance }) => xAdvance / family.regular.unitsPerEm);
    for (const width of widths) expect(width).toBeLessThan(0.6);
  });
});

import { describe, expect, it } from "vitest";
import { docxPart } from "../../../test/documents.ts";
import { renderResumeDocx } from "../src/documents/render-resume-docx.ts";
import {
  canonicalLanguageTag,
  languageOfText,
  readsRightToLeftLanguage,
  scriptOfLanguage,
} from "../src/resume-language.ts";

describe("canonicalLanguageTag", () => {
  it("writes a well-formed tag in its canonical form", () => {
    expect(canonicalLanguageTag("en")).toBe("en");
    expect(canonicalLanguageTag("EN-us")).toBe("en-US");
    expect(canonicalLanguageTag("zh-hant-tw")).toBe("zh-Hant-TW");
    expect(canonicalLanguageTag("pt-BR")).toBe("pt-BR");
    // A deprecated code is written as its current one.
    expect(canonicalLanguageTag("iw")).toBe("he");
  });

  it("refuses what is no language tag", () => {
    for (const tag of ["", "English", "en_US", "en-", "-en", "e", "en--US", "root", "en US", "ça"])
      expect(canonicalLanguageTag(tag), tag).toBeNull();
  });
});

describe("languageOfText", () => {
  it("tells the language of a text written in a script that tells it", () => {
    expect(languageOfText(["דנה לוי", "מפתחת תוכנה", "React, TypeScript"])).toBe("he");
    expect(languageOfText(["Γιάννης Παπαδόπουλος", "Μηχανικός λογισμικού"])).toBe("el");
    expect(languageOfText(["김민준", "소프트웨어 엔지니어", "韓國"])).toBe("ko");
    expect(languageOfText(["ソフトウェアエンジニア", "山田太郎", "東京大学 工学部"])).toBe("ja");
    expect(languageOfText(["王小明", "高级软件工程师", "北京大学"])).toBe("zh");
  });

  it("reads a CJK character as a syllable, not a letter: a Japanese resume that names its English tools is Japanese", () => {
    const japanese = [
      "フロントエンドエンジニア",
      "ReactとTypeScriptで決済画面を開発",
      "React, TypeScript, Next.js, GraphQL, Storybook, Playwright, Vitest, Tailwind CSS",
    ];
    expect(languageOfText(japanese)).toBe("ja");
    const chinese = [
      "高级前端工程师",
      "使用React和TypeScript开发支付系统",
      "React, TypeScript, Node.js, PostgreSQL",
    ];
    expect(languageOfText(chinese)).toBe("zh");
  });

  it("keeps Han characters Chinese beside a few kana or Hangul (a Japanese or Korean company's name)", () => {
    const chinese = [
      "王小明",
      "高级软件工程师，负责支付系统与结算平台的设计和开发",
      "北京大学计算机科学与技术学院",
    ];
    expect(languageOfText([...chinese, "株式会社メルカリ"])).toBe("zh");
    expect(languageOfText([...chinese, "삼성전자"])).toBe("zh");
    // A Korean resume that names a Japanese company stays Korean.
    expect(languageOfText(["김민준", "소프트웨어 엔지니어", "株式会社メルカリ 협업"])).toBe("ko");
  });

  it("says nothing of Latin, Cyrillic or Arabic text, nor of a Latin one with a few letters of another script", () => {
    expect(languageOfText(["Ada Lovelace", "Analyst"])).toBeNull();
    expect(languageOfText(["Иван Петров", "Инженер"])).toBeNull();
    expect(languageOfText(["محمد علي", "مهندس برمجيات"])).toBeNull();
    expect(languageOfText(["Mei Lin 林美", "Senior engineer at Acme, payments and billing"])).toBeNull();
    expect(languageOfText(["Dana (דנה) Levi", "Senior engineer"])).toBeNull();
    expect(languageOfText([])).toBeNull();
  });
});

describe("a language's script", () => {
  it("is CLDR's likely one: right to left for Arabic and Hebrew written languages, East Asian for CJK", () => {
    for (const tag of ["he", "ar", "fa", "ur", "yi", "dv", "pa-Arab", "ckb"])
      expect(readsRightToLeftLanguage(tag), tag).toBe(true);
    // Kurmanji is written in Latin letters, Punjabi (unqualified) in Gurmukhi.
    for (const tag of ["en", "ku", "pa", "sr", "ja", "zh-Hant"])
      expect(readsRightToLeftLanguage(tag), tag).toBe(false);
    expect(["ja", "ko", "zh", "zh-TW", "zh-HK"].map(scriptOfLanguage)).toEqual([
      "Jpan",
      "Kore",
      "Hans",
      "Hant",
      "Hant",
    ]);
  });
});

describe("the Word file's language", () => {
  const wordLanguageOf = async (language: string | null) => {
    const outline = { name: "A", headline: null, contact: [], sections: [], language };
    const styles = await docxPart(new Uint8Array(await renderResumeDocx(outline, "a4")), "word/styles.xml");
    return /<w:docDefaults>.*?<w:lang ([^/]*)\/>/s.exec(styles)?.[1];
  };

  it("goes where Word keeps the language of its script", async () => {
    expect(await wordLanguageOf("de")).toBe('w:val="de"');
    expect(await wordLanguageOf("ku")).toBe('w:val="ku"');
    expect(await wordLanguageOf("ar")).toBe('w:bidi="ar"');
    expect(await wordLanguageOf("pa-Arab")).toBe('w:bidi="pa-Arab"');
    expect(await wordLanguageOf("zh-Hant")).toBe('w:eastAsia="zh-Hant"');
    expect(await wordLanguageOf("ko")).toBe('w:eastAsia="ko"');
    expect(await wordLanguageOf(null)).toBeUndefined();
  });
});

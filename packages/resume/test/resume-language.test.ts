import { describe, expect, it } from "vitest";
import { canonicalLanguageTag, languageOfText } from "../src/resume-language.ts";

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

  it("says nothing of Latin, Cyrillic or Arabic text, nor of a Latin one with a few letters of another script", () => {
    expect(languageOfText(["Ada Lovelace", "Analyst"])).toBeNull();
    expect(languageOfText(["Иван Петров", "Инженер"])).toBeNull();
    expect(languageOfText(["محمد علي", "مهندس برمجيات"])).toBeNull();
    expect(languageOfText(["Mei Lin 林美", "Senior engineer at Acme, payments and billing"])).toBeNull();
    expect(languageOfText(["Dana (דנה) Levi", "Senior engineer"])).toBeNull();
    expect(languageOfText([])).toBeNull();
  });
});

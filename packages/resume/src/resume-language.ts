import type { WholeResume } from "./schemas/whole-resume.ts";

/** The longest language tag kept, written canonically (RFC 5646 asks implementations to take at least 35 characters). */
export const LANGUAGE_TAG_LENGTH = 35;

/**
 * A language tag as its canonical form (`en-us` is `en-US`, `iw` is `he`), or
 * null when it is no well-formed BCP 47 tag of a language of two or three
 * letters (the shape the database's check keeps: migration profile_language).
 * The canonical form may be longer than the tag given (`sh` is `sr-Latn`).
 */
export function canonicalLanguageTag(tag: string): string | null {
  // Intl also takes Unicode's own `root` and `_` separators, which no `lang` attribute reads.
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag)) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** The script a language is written in, as CLDR's likely subtags tell (`ja`: `Jpan`, `zh-TW`: `Hant`, `ku`: `Latn`). */
export function scriptOfLanguage(tag: string): string | undefined {
  try {
    return new Intl.Locale(tag).maximize().script;
  } catch {
    return undefined;
  }
}

/** Scripts written right to left (Unicode's), by their ISO 15924 codes. */
const RIGHT_TO_LEFT_SCRIPTS = new Set([
  "Adlm",
  "Arab",
  "Hebr",
  "Mand",
  "Mend",
  "Nkoo",
  "Rohg",
  "Samr",
  "Syrc",
  "Thaa",
  "Yezi",
]);

/** Whether a language is written right to left: `he`, `ar`, `pa-Arab`; not `ku` (Latin, as CLDR has it) nor `pa`. */
export const readsRightToLeftLanguage = (tag: string) =>
  RIGHT_TO_LEFT_SCRIPTS.has(scriptOfLanguage(tag) ?? "");

/**
 * The scripts whose letters tell the language they are written in, nearly
 * always: Hebrew is Hebrew (Yiddish aside), kana Japanese, Hangul Korean.
 * Latin, Cyrillic, Arabic and Devanagari letters are written in many
 * languages each, so a resume in those says nothing by its script alone.
 */
const TELLING_SCRIPTS: readonly { script: RegExp; language: string }[] = [
  { script: /\p{Script=Hebrew}/u, language: "he" },
  { script: /\p{Script=Greek}/u, language: "el" },
  { script: /\p{Script=Thai}/u, language: "th" },
  { script: /\p{Script=Armenian}/u, language: "hy" },
  { script: /\p{Script=Georgian}/u, language: "ka" },
  { script: /\p{Script=Hangul}/u, language: "ko" },
  { script: /[\p{Script=Hiragana}\p{Script=Katakana}]/u, language: "ja" },
];
const HAN = /\p{Script=Han}/u;
const LETTER = /\p{L}/u;

/**
 * The language of a resume: the one its profile names, else the one its
 * person's text is written in where its script tells (languageOfText), else
 * null (the caller's default, English). Only what the person wrote counts,
 * not the dates, ids or URLs.
 */
export function resumeLanguage(resume: WholeResume): string | null {
  return resume.profile?.language ?? languageOfText(personsText(resume));
}

/**
 * A Chinese, Japanese or Korean character counts as this many letters: it
 * writes a syllable or a word, where a Latin letter writes a sound. So a
 * Japanese resume that names its English tools still reads as Japanese.
 */
const CJK_CHARACTER_LETTERS = 3;
/** The characters read: a resume's language shows in its first pages, and a 10 MB one took seconds. */
const TEXT_READ = 100_000;
/** The share of a text's letters a telling script needs to say the text's language. */
const TELLING_SHARE = 0.25;
/** Kana (or Hangul) at least this share of the Han characters make them Japanese (or Korean). */
const HAN_IN_JAPANESE_OR_KOREAN = 0.1;

/**
 * The language `texts` are written in by their script: the telling script
 * (TELLING_SCRIPTS) with the most letters, where it holds at least a quarter
 * of all (a Japanese resume names its tools in Latin letters, an English one
 * may name its author in Han characters); else null.
 * Han characters are Japanese beside a share of kana, Korean beside a share
 * of Hangul, else Chinese: a Chinese resume that names a Japanese company
 * (株式会社メルカリ) stays Chinese.
 */
export function languageOfText(texts: Iterable<string>): string | null {
  const letters = new Map<string, number>();
  const count = (key: string, weight = 1) => letters.set(key, (letters.get(key) ?? 0) + weight);
  let read = 0;
  for (const text of texts) {
    for (const character of text) {
      // ASCII first: most resumes are mostly ASCII, and a script's regular expression costs more.
      if (character < "\u0080") {
        if (/[A-Za-z]/.test(character)) count("other");
        continue;
      }
      if (!LETTER.test(character)) continue;
      if (HAN.test(character)) count("han", CJK_CHARACTER_LETTERS);
      else {
        const language = TELLING_SCRIPTS.find(({ script }) => script.test(character))?.language ?? "other";
        count(language, language === "ja" || language === "ko" ? CJK_CHARACTER_LETTERS : 1);
      }
    }
    read += text.length;
    if (read >= TEXT_READ) break;
  }
  const [han, kana, hangul] = ["han", "ja", "ko"].map((key) => letters.get(key) ?? 0) as [
    number,
    number,
    number,
  ];
  const shareOfHan = (other: number) => other > 0 && other >= han * HAN_IN_JAPANESE_OR_KOREAN;
  const hanLanguage = shareOfHan(kana) && kana >= hangul ? "ja" : shareOfHan(hangul) ? "ko" : "zh";
  letters.delete("han");
  count(hanLanguage, han);
  let total = 0;
  let most: [string | null, number] = [null, 0];
  for (const [language, weight] of letters) {
    total += weight;
    if (language !== "other" && weight > most[1]) most = [language, weight];
  }
  return most[1] >= total * TELLING_SHARE ? most[0] : null;
}

/** The free text of a resume: what its person wrote, in words. */
function* personsText({ profile, ...collections }: WholeResume): Generator<string> {
  const fields = (value: object, keys: readonly string[]) =>
    keys.flatMap((key) => {
      const field = (value as Record<string, unknown>)[key];
      return typeof field === "string" ? [field] : Array.isArray(field) ? field.map(String) : [];
    });
  if (profile)
    yield* fields(profile, ["name", "headline", "summary", "location", "city", "region", "goals_summary"]);
  for (const job of collections.experience)
    yield* fields(job, ["title", "organization", "location", "responsibilities", "accomplishments"]);
  for (const school of collections.education)
    yield* fields(school, ["institution", "degree", "field_of_study", "location", "honors", "activities"]);
  for (const skill of collections.skills) yield* fields(skill, ["name", "keywords"]);
  for (const certification of collections.certifications)
    yield* fields(certification, ["name", "issuing_organization"]);
  for (const hobby of collections.hobbies) yield* fields(hobby, ["name", "description"]);
  for (const goal of collections.goals) yield* fields(goal, ["description"]);
}

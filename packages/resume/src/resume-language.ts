import type { WholeResume } from "./schemas/whole-resume.ts";

/** A language tag as its canonical form (`en-us` is `en-US`), or null when it is no well-formed BCP 47 tag. */
export function canonicalLanguageTag(tag: string): string | null {
  // Intl also takes Unicode's own `root` and `_` separators, which no `lang` attribute reads.
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag)) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

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
 * person's text is written in where its script tells (TELLING_SCRIPTS: the
 * script with the most letters; Han characters are Japanese beside kana,
 * Korean beside Hangul, else Chinese), else null (the caller's default,
 * English). Only what the person wrote counts, not the dates, ids or URLs.
 */
export function resumeLanguage(resume: WholeResume): string | null {
  return resume.profile?.language ?? languageOfText(personsText(resume));
}

/** The language `texts` are written in, by their script; null when their script does not tell. */
export function languageOfText(texts: Iterable<string>): string | null {
  const letters = new Map<string, number>();
  const count = (key: string) => letters.set(key, (letters.get(key) ?? 0) + 1);
  for (const text of texts)
    for (const character of text) {
      if (!LETTER.test(character)) continue;
      if (HAN.test(character)) count("han");
      else count(TELLING_SCRIPTS.find(({ script }) => script.test(character))?.language ?? "other");
    }
  const han = letters.get("han") ?? 0;
  // Han characters are written in Japanese and Korean text too: there they count toward that language.
  const hanLanguage = (letters.get("ja") ?? 0) > 0 ? "ja" : (letters.get("ko") ?? 0) > 0 ? "ko" : "zh";
  letters.delete("han");
  letters.set(hanLanguage, (letters.get(hanLanguage) ?? 0) + han);
  let most: [string, number] = ["other", 0];
  for (const entry of letters) if (entry[1] > most[1]) most = entry;
  return most[0] === "other" ? null : most[0];
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

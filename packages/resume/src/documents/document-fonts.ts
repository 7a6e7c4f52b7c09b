import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as fontkit from "fontkit";
import { scriptOfLanguage } from "../resume-language.ts";
import { withBidiLayout } from "./bidi-layout.ts";

/** The two faces a PDF is drawn in: text, and names and headings. */
export interface PdfFontFamily {
  regular: fontkit.Font;
  bold: fontkit.Font;
}

/** Where a family's files are: its npm package's folder, and its two files in it. */
interface FamilyFiles {
  folder: () => string;
  regular: string;
  bold: string;
}

// Each package by one static name: a bundler that sees a path pattern takes every file it matches.
const require = createRequire(import.meta.url);
const folderOf = (packageJson: string) => path.dirname(packageJson);

/**
 * DejaVu Sans (npm `dejavu-fonts-ttf`) draws Latin with its diacritics, Greek,
 * Cyrillic, Hebrew, Arabic and much more, but no Chinese, Japanese or Korean.
 * Noto Sans SC, JP and KR (Google Fonts, OFL, as npm `@expo-google-fonts/*`)
 * draw those and Latin too; each writes the Han characters in its own
 * country's forms, so a text with kana prefers JP and one with Hangul KR.
 */
const DEJAVU: FamilyFiles = {
  folder: () => folderOf(require.resolve("dejavu-fonts-ttf/package.json")),
  regular: "ttf/DejaVuSans.ttf",
  bold: "ttf/DejaVuSans-Bold.ttf",
};
const NOTO = {
  SC: {
    folder: () => folderOf(require.resolve("@expo-google-fonts/noto-sans-sc/package.json")),
    regular: "400Regular/NotoSansSC_400Regular.ttf",
    bold: "700Bold/NotoSansSC_700Bold.ttf",
  },
  JP: {
    folder: () => folderOf(require.resolve("@expo-google-fonts/noto-sans-jp/package.json")),
    regular: "400Regular/NotoSansJP_400Regular.ttf",
    bold: "700Bold/NotoSansJP_700Bold.ttf",
  },
  KR: {
    folder: () => folderOf(require.resolve("@expo-google-fonts/noto-sans-kr/package.json")),
    regular: "400Regular/NotoSansKR_400Regular.ttf",
    bold: "700Bold/NotoSansKR_700Bold.ttf",
  },
} satisfies Record<string, FamilyFiles>;

/** The family of a language written in Chinese characters, by its script (scriptOfLanguage); no Traditional Chinese family is installed. */
const NOTO_BY_SCRIPT: Partial<Record<string, FamilyFiles>> = {
  Hans: NOTO.SC,
  Hant: NOTO.SC,
  Jpan: NOTO.JP,
  Kore: NOTO.KR,
};

const KANA = /[\u3040-\u30FF\u31F0-\u31FF\uFF66-\uFF9F]/u;
const HAN = /\p{Script=Han}/u;
const LATIN = /\p{Script=Latin}/u;
const HANGUL = /[\u1100-\u11FF\u3130-\u318F\uA960-\uA97F\uAC00-\uD7FF]/u;

const parsed = new Map<FamilyFiles, PdfFontFamily>();

/**
 * A family, read and parsed once per process (on first use: the Noto fonts are
 * 10 MB a face): pdfkit takes a parsed font as well as a file, and parsing
 * DejaVu again for each document took most of a render.
 */
function familyOf(files: FamilyFiles): PdfFontFamily {
  let family = parsed.get(files);
  if (!family) {
    const folder = files.folder();
    const open = (file: string) =>
      withBidiLayout(fontkit.create(readFileSync(path.join(folder, file))) as fontkit.Font);
    family = { regular: open(files.regular), bold: open(files.bold) };
    parsed.set(files, family);
  }
  return family;
}

/** The family a PDF is drawn in, and the characters of its text that family cannot draw. */
export interface PdfFontChoice {
  family: PdfFontFamily;
  /** Distinct, as `U+XXXX`, in code point order. */
  unrendered: string[];
}

/**
 * The family for a PDF of `texts`: DejaVu when it draws every character, else
 * the first of the Noto families that does, else the one that draws the most
 * of its distinct characters. pdfkit draws a text in one font, so a document
 * is drawn in one family: a Chinese resume's English words are drawn in Noto's
 * Latin. What the family chosen cannot draw would be an empty box: the answer
 * names those characters (X-Unrendered-Characters).
 *
 * The Noto families are tried only for a text in Chinese, Japanese or Korean
 * (20 MB a family, kept for the process: an emoji DejaVu lacks is in none of
 * them), in the order of its script: Hangul KR first, kana JP; Han characters
 * SC, unless they are fewer than the Latin letters (an English resume with a
 * Chinese name), then JP, whose quotes, apostrophes and middle dots are as
 * narrow as Latin type's (SC sets them an em wide, as Chinese type does).
 * A resume whose language is Chinese, Japanese or Korean is tried in that
 * language's family first, whatever its script says.
 */
export function pdfFontFamilyFor(texts: Iterable<string>, language: string | null = null): PdfFontChoice {
  const characters = drawnCharacters(texts);
  const [han, kana, hangul, latin] = [HAN, KANA, HANGUL, LATIN].map(
    (script) => characters.filter((codePoint) => script.test(String.fromCodePoint(codePoint))).length,
  ) as [number, number, number, number];
  const first =
    (language === null ? undefined : NOTO_BY_SCRIPT[scriptOfLanguage(language) ?? ""]) ??
    (hangul > 0 ? NOTO.KR : kana > 0 || (han > 0 && han < latin) ? NOTO.JP : NOTO.SC);
  const candidates =
    han + kana + hangul === 0
      ? [DEJAVU]
      : [DEJAVU, first, ...Object.values(NOTO).filter((files) => files !== first)];
  let best: PdfFontChoice | undefined;
  for (const files of candidates) {
    const family = familyOf(files);
    const missing = characters.filter(
      (codePoint) =>
        !family.regular.hasGlyphForCodePoint(codePoint) || !family.bold.hasGlyphForCodePoint(codePoint),
    );
    if (!best || missing.length < best.unrendered.length)
      best = { family, unrendered: missing.map(codePointName) };
    if (missing.length === 0) break;
  }
  return best!;
}

/**
 * The distinct characters of `texts` that a font must draw, in code point
 * order: the space and the line breaks the documents read (U+2028, U+2029),
 * controls and the characters meant to show as nothing aside (bidi marks and
 * isolates, joiners: fontkit lays those out as nothing, whatever the font),
 * and the ideographic space, which the PDF draws as an em space. Other white
 * space is drawn from the font like any character (a box where it has none).
 */
function drawnCharacters(texts: Iterable<string>): number[] {
  const seen = new Set<number>();
  for (const text of texts) {
    for (const character of text) {
      const codePoint = character.codePointAt(0)!;
      if (
        seen.has(codePoint) ||
        /[ \u2028\u2029\u3000\p{Cc}\p{Default_Ignorable_Code_Point}]/u.test(character)
      )
        continue;
      seen.add(codePoint);
    }
  }
  return [...seen].sort((a, b) => a - b);
}

const codePointName = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;

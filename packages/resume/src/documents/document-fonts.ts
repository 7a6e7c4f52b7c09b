import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as fontkit from "fontkit";
import { withBidiLayout } from "./bidi-layout.ts";

/**
 * The fonts embedded in the PDF: DejaVu Sans (npm `dejavu-fonts-ttf`), which
 * covers Latin with its diacritics, Greek, Cyrillic and much more. A character
 * it has no glyph for (Chinese, Japanese, emoji) would be an empty box: the
 * answer names such characters instead (X-Unrendered-Characters).
 */
// From the package's folder (one static name): a bundler that sees a path pattern takes every file it matches.
const fontFile = (name: string) =>
  path.join(
    path.dirname(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json")),
    "ttf",
    name,
  );

let fonts: { regular: fontkit.Font; bold: fontkit.Font } | undefined;

/**
 * The fonts, read and parsed once per process: pdfkit takes a parsed font as
 * well as a file, and parsing DejaVu again for each document took most of a render.
 */
export function pdfFonts(): { regular: fontkit.Font; bold: fontkit.Font } {
  const open = (name: string) => withBidiLayout(fontkit.create(readFileSync(fontFile(name))) as fontkit.Font);
  fonts ??= { regular: open("DejaVuSans.ttf"), bold: open("DejaVuSans-Bold.ttf") };
  return fonts;
}

/**
 * The distinct characters of `texts` that one of the embedded fonts cannot
 * draw (the bold one draws names and headings), as `U+XXXX`; the space and
 * the line breaks the documents read (U+2028, U+2029), controls and the
 * characters meant to show as nothing aside (bidi marks and isolates,
 * joiners: fontkit lays those out as nothing, whatever the font), and the
 * ideographic space, which the PDF draws as an em space. Other white space is
 * drawn from the font like any character (a box where it has none).
 */
export function unrenderedCharacters(texts: Iterable<string>): string[] {
  const { regular, bold } = pdfFonts();
  const missing = new Set<number>();
  for (const text of texts) {
    for (const character of text) {
      const codePoint = character.codePointAt(0)!;
      if (
        /[ \u2028\u2029\u3000\p{Cc}\p{Default_Ignorable_Code_Point}]/u.test(character) ||
        missing.has(codePoint)
      )
        continue;
      if (!regular.hasGlyphForCodePoint(codePoint) || !bold.hasGlyphForCodePoint(codePoint))
        missing.add(codePoint);
    }
  }
  return [...missing]
    .sort((a, b) => a - b)
    .map((codePoint) => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`);
}

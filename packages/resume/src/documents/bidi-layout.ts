/**
 * Right-to-left text (Hebrew, Arabic) in the PDF. pdfkit draws a line's words
 * left to right and has fontkit shape each word alone, and fontkit reverses
 * a word of a right-to-left script as a whole: "Hello שלום world" came out
 * with the space on the wrong side of the Hebrew word, a Hebrew sentence with
 * its words in reverse order, and "ב-TypeScript" with TypeScript spelt
 * backwards. Here each line pdfkit lays out is ordered by the Unicode
 * Bidirectional Algorithm (bidi-js, UAX #9): cut into runs of one direction,
 * in the order they are drawn, each shaped by fontkit in its own direction
 * (so Arabic letters still join), brackets mirrored in right-to-left runs.
 *
 * pdfkit hands a text's `features` to the font's layout as they are; the two
 * arrays below mark a paragraph's direction there. Text without a
 * right-to-left character is laid out by pdfkit as before.
 */
// @ts-expect-error -- bidi-js ships no types: the part used here is typed below (Bidi).
import bidiFactory from "bidi-js";
import type * as fontkit from "fontkit";

/** What bidi-js (UAX #9, MIT) gives, the part used here. */
interface Bidi {
  getEmbeddingLevels(
    text: string,
    direction?: "ltr" | "rtl",
  ): { levels: Uint8Array; paragraphs: { start: number; end: number; level: number }[] };
  getReorderSegments(text: string, levels: ReturnType<Bidi["getEmbeddingLevels"]>): [number, number][];
  getMirroredCharacter(character: string): string | null;
}

const bidi = (bidiFactory as () => Bidi)();

/** Letters and digits of the right-to-left scripts, and their presentation forms. */
export const RIGHT_TO_LEFT =
  /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

type PdfFeatures = NonNullable<PDFKit.Mixins.TextOptions["features"]>;

/** pdfkit `features` of a paragraph laid out by withBidiLayout, by its direction. */
const PARAGRAPH_FEATURES = { ltr: [] as PdfFeatures, rtl: [] as PdfFeatures };

/** One direction's stretch of a line: its text in reading order, and whether it reads right to left. */
export interface DirectionalRun {
  text: string;
  rightToLeft: boolean;
}

/**
 * Whether a paragraph (no line break) reads right to left: by its first letter
 * of a strong direction (UAX #9, P2-P3); text without a right-to-left
 * character never does. The rule of the PDF (bidiFeatures) and of the Word
 * file (render-resume-docx.ts).
 */
export function readsRightToLeft(paragraph: string): boolean {
  if (!RIGHT_TO_LEFT.test(paragraph)) return false;
  const { paragraphs } = bidi.getEmbeddingLevels(withBmpStandIns(paragraph));
  return (paragraphs[0]?.level ?? 0) % 2 === 1;
}

/**
 * The pdfkit `features` for one paragraph (no line break): undefined for text
 * without a right-to-left character, else its direction's marker (readsRightToLeft).
 */
export function bidiFeatures(paragraph: string): PdfFeatures | undefined {
  if (!RIGHT_TO_LEFT.test(paragraph)) return undefined;
  return readsRightToLeft(paragraph) ? PARAGRAPH_FEATURES.rtl : PARAGRAPH_FEATURES.ltr;
}

/**
 * A paragraph (no line break) read in the given direction, cut where the
 * direction of its characters changes (UAX #9's levels): its stretches in
 * reading order, together its whole text. "אני ב-TypeScript" in a
 * right-to-left paragraph is "אני ב-" right to left, then "TypeScript".
 */
export function logicalRuns(paragraph: string, rightToLeft: boolean): DirectionalRun[] {
  const { levels } = bidi.getEmbeddingLevels(withBmpStandIns(paragraph), rightToLeft ? "rtl" : "ltr");
  const runs: DirectionalRun[] = [];
  for (let i = 0; i < paragraph.length; i++) {
    const runRightToLeft = levels[i]! % 2 === 1;
    const last = runs.at(-1);
    if (last?.rightToLeft === runRightToLeft) last.text += paragraph[i];
    else runs.push({ text: paragraph[i]!, rightToLeft: runRightToLeft });
  }
  return runs;
}

/** bidiFeatures, and the left-to-right marker for text without right-to-left letters. */
export const sharedLineFeatures = (text: string): PdfFeatures => bidiFeatures(text) ?? PARAGRAPH_FEATURES.ltr;

/**
 * One line of a paragraph as runs of one direction, left to right as they are
 * drawn; each run's text in reading order (fontkit reverses a right-to-left run
 * as it shapes it), mirrored characters (brackets) swapped in right-to-left
 * runs. The line's trailing white space comes last: UAX #9 (L1) would draw it
 * at a right-to-left line's left, where the page's left-aligned lines start.
 */
export function visualRuns(line: string, rightToLeft: boolean): DirectionalRun[] {
  const text = line.trimEnd();
  const levels = bidi.getEmbeddingLevels(withBmpStandIns(text), rightToLeft ? "rtl" : "ltr");
  const order = Array.from({ length: text.length }, (_, i) => i);
  for (const [start, end] of bidi.getReorderSegments(text, levels)) {
    const flipped = order.slice(start, end + 1).reverse();
    order.splice(start, flipped.length, ...flipped);
  }
  const runs: { indexes: number[]; rightToLeft: boolean }[] = [];
  for (const index of order) {
    const rightToLeft = levels.levels[index]! % 2 === 1;
    const last = runs.at(-1);
    if (last?.rightToLeft === rightToLeft) last.indexes.push(index);
    else runs.push({ indexes: [index], rightToLeft });
  }
  const drawn = runs.map(({ indexes, rightToLeft }) => ({
    // Drawn order back to reading order for a right-to-left run: fontkit shapes in reading order.
    text: rightToLeft
      ? indexes
          .reverse()
          .map((i) => bidi.getMirroredCharacter(text[i]!) ?? text[i])
          .join("")
      : indexes.map((i) => text[i]).join(""),
    rightToLeft,
  }));
  const trailing = line.slice(text.length);
  return trailing ? [...drawn, { text: trailing, rightToLeft: false }] : drawn;
}

/**
 * `text` with each character outside the Basic Multilingual Plane (two UTF-16
 * units) written as two units of its direction's kind: bidi-js reads one unit
 * at a time, and takes a lone surrogate for a left-to-right letter, so an
 * emoji between two Hebrew words would cut them into two runs. A letter of a
 * right-to-left script (Adlam, Old Hebrew scripts) stands as a Hebrew letter,
 * other letters and digits as Latin ones, the rest (emoji, symbols) as a
 * neutral. The same length, so each index is the text's own.
 */
function withBmpStandIns(text: string): string {
  return text.replace(/[\u{10000}-\u{10FFFF}]/gu, (character) =>
    RIGHT_TO_LEFT.test(character) ? "אא" : /[\p{L}\p{N}]/u.test(character) ? "aa" : "!!",
  );
}

/** Characters meant to show as nothing: bidi marks and isolates, joiners, variation selectors. */
const SHOWN_AS_NOTHING = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * `font`, its layout changed for the texts pdfkit draws with a
 * PARAGRAPH_FEATURES marker: each line in its runs (visualRuns), laid out
 * each in its own direction and joined. In every text, a character meant to
 * show as nothing that the font has no glyph for (an isolate, the Arabic
 * letter mark) is left out once the runs are known: fontkit would hide it,
 * but takes it for its missing-glyph box once that glyph was made for another
 * character (pdfkit makes it first, for every font).
 */
export function withBidiLayout(font: fontkit.Font): fontkit.Font {
  const layout = font.layout.bind(font);
  const shown = (text: string) =>
    text.replace(SHOWN_AS_NOTHING, (character) =>
      font.hasGlyphForCodePoint(character.codePointAt(0)!) ? character : "",
    );
  font.layout = (text, features, ...rest) => {
    const rightToLeft =
      features === PARAGRAPH_FEATURES.rtl ? true : features === PARAGRAPH_FEATURES.ltr ? false : undefined;
    if (rightToLeft === undefined) return layout(shown(text), features, ...rest);
    const runs = visualRuns(text, rightToLeft).map((run) =>
      layout(shown(run.text), [], undefined, undefined, run.rightToLeft ? "rtl" : "ltr"),
    );
    if (runs.length <= 1) return runs[0] ?? layout(text, [], ...rest);
    // pdfkit scales the positions after layout, so the width is summed when read, as fontkit's own runs do.
    return {
      ...runs[0],
      glyphs: runs.flatMap((run) => run.glyphs),
      positions: runs.flatMap((run) => run.positions),
      get advanceWidth() {
        return this.positions.reduce((width, position) => width + position.xAdvance, 0);
      },
    } as fontkit.GlyphRun;
  };
  return font;
}

import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  TabStopType,
  TextRun,
  type IParagraphOptions,
  type IRunOptions,
  type ParagraphChild,
} from "docx";
import { readsRightToLeftLanguage, scriptOfLanguage } from "../resume-language.ts";
import { logicalRuns, readsRightToLeft } from "./bidi-layout.ts";
import type { PaperSize } from "./render-resume-pdf.ts";
import type { OutlineEntry, OutlineText, ResumeOutline } from "./resume-outline.ts";
import { linesOfWholeItems } from "./whole-item-lines.ts";

/** Page sizes in twentieths of a point. */
const PAGE = { a4: { width: 11906, height: 16838 }, letter: { width: 12240, height: 15840 } };
const MARGIN = 1080; // 0.75 in
const TWIPS_PER_POINT = 20;
/** The body text's size, in points (Word's run sizes are in half points). */
const BODY_POINTS = 10.5;
const MUTED = "555555";
const BULLETS = "resume-bullets";

/**
 * The resume as a Word document (the `docx` package) that a recruiter can
 * edit: the name in the Title style, sections as Heading 1, entries as
 * Heading 2 with their dates at a right tab stop, bullets as real list items,
 * links as hyperlinks. The same text as the PDF, in the same order.
 */
export async function renderResumeDocx(outline: ResumeOutline, paper: PaperSize): Promise<Buffer> {
  const page = PAGE[paper];
  const contentWidth = page.width - 2 * MARGIN;
  const children: Paragraph[] = [paragraph({ heading: HeadingLevel.TITLE }, [{ text: outline.name }])];
  if (outline.headline)
    children.push(paragraph({}, [{ text: outline.headline, run: { color: MUTED, size: 24 } }]));
  if (outline.contact.length) children.push(paragraph({}, contactPieces(outline.contact, contentWidth)));

  for (const section of outline.sections) {
    children.push(paragraph({ heading: HeadingLevel.HEADING_1 }, [{ text: section.title }]));
    for (const text of section.paragraphs) children.push(...lines(text));
    for (const entry of section.entries) children.push(...entryParagraphs(entry, contentWidth));
  }

  const document = new Document({
    creator: outline.name,
    // Else docx writes "Un-named", which Word shows under File > Info.
    lastModifiedBy: outline.name,
    title: outline.name,
    description: "Resume",
    styles: {
      default: {
        document: {
          run: { font: "Calibri", size: BODY_POINTS * 2, language: wordLanguage(outline.language) },
          paragraph: { spacing: { after: 40 } },
        },
        title: {
          run: { font: "Calibri", size: 40, bold: true, color: "1A1A1A" },
          paragraph: { spacing: { after: 60 } },
        },
        heading1: {
          run: { font: "Calibri", size: 22, bold: true, allCaps: true, color: "1A1A1A" },
          paragraph: {
            spacing: { before: 240, after: 80 },
            border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: "B8B8B8", space: 1 } },
            keepNext: true,
          },
        },
        heading2: {
          run: { font: "Calibri", size: 21, bold: true, color: "1A1A1A" },
          paragraph: { spacing: { before: 120, after: 0 }, keepNext: true },
        },
      },
    },
    numbering: {
      config: [
        {
          reference: BULLETS,
          levels: [
            {
              level: 0,
              format: LevelFormat.BULLET,
              text: "•",
              alignment: AlignmentType.LEFT,
              style: { paragraph: { indent: { left: 300, hanging: 200 } } },
            },
          ],
        },
      ],
    },
    sections: [
      {
        properties: {
          page: { size: page, margin: { top: MARGIN, right: MARGIN, bottom: MARGIN, left: MARGIN } },
        },
        children,
      },
    ],
  });
  return Packer.toBuffer(document);
}

/**
 * Text of a paragraph with its run's formatting, a link when it has a `url`.
 * A line feed in it is a line break of Word's own (a list item's lines).
 */
interface Piece {
  text: string;
  run?: Omit<IRunOptions, "text" | "break" | "children">;
  url?: string;
}

/**
 * A paragraph of `pieces`. One whose first letter of a strong direction is
 * right-to-left (Hebrew, Arabic: the PDF's rule, readsRightToLeft) is a
 * right-to-left paragraph (w:bidi), which Word and LibreOffice lay out from
 * the right, and its text is cut where its direction changes (UAX #9), the
 * right-to-left stretches marked (w:rtl). Not each whole run: Word takes the
 * spaces and punctuation of a run marked right-to-left as right-to-left, and
 * "React Native" in a Hebrew line would read "Native React". Any other
 * paragraph has neither mark.
 */
function paragraph(options: Omit<IParagraphOptions, "children">, pieces: Piece[]): Paragraph {
  // A line break inside a paragraph is white space (U+2028), not the end of it; one character too.
  const text = pieces
    .map((piece) => piece.text)
    .join("")
    .replaceAll("\n", "\u2028");
  if (!readsRightToLeft(text))
    return new Paragraph({ ...options, children: pieces.flatMap((piece) => runs(piece, [piece])) });

  const stretches = logicalRuns(text, true).map((run) => ({
    ...run,
    text: run.text.replaceAll("\u2028", "\n"),
  }));
  const cut = (piece: Piece): Part[] => {
    const parts: Part[] = [];
    for (let left = piece.text.length; left > 0;) {
      const stretch = stretches[0]!;
      const part = { text: stretch.text.slice(0, left), rightToLeft: stretch.rightToLeft };
      parts.push(part);
      left -= part.text.length;
      stretch.text = stretch.text.slice(part.text.length);
      if (!stretch.text) stretches.shift();
    }
    return parts;
  };
  return new Paragraph({
    ...options,
    bidirectional: true,
    children: pieces.flatMap((piece) => runs(piece, cut(piece))),
  });
}

/** Some of a paragraph's text, and whether it is a right-to-left stretch. */
interface Part {
  text: string;
  rightToLeft?: boolean;
}

/**
 * A piece as the runs of its `parts` (marked right-to-left where they are),
 * in a hyperlink when it is a link; each line after the first begins with a
 * line break.
 */
function runs(piece: Piece, parts: Part[]): ParagraphChild[] {
  const partLines = parts.flatMap(({ text, rightToLeft }) =>
    text.split("\n").map((line, i) => ({ line, rightToLeft, broken: i > 0 })),
  );
  const format = piece.url ? { style: "Hyperlink" } : piece.run;
  const textRuns = partLines
    // A part after the first that starts at a line break starts with an empty line: no run of its own.
    .filter(({ line, broken }, i) => i === 0 || line !== "" || broken)
    .map(
      ({ line, rightToLeft, broken }) =>
        new TextRun({
          text: line,
          ...format,
          ...(broken ? { break: 1 } : {}),
          ...(rightToLeft ? { rightToLeft: true } : {}),
        }),
    );
  return piece.url ? [new ExternalHyperlink({ link: piece.url, children: textRuns })] : textRuns;
}

/** A paragraph per line of the user's text. */
function lines(text: string): Paragraph[] {
  return text.split(/\r?\n/).map((line) => paragraph({}, [{ text: line, run: {} }]));
}

function link({ text, url }: OutlineText): Piece {
  return url ? { text, url } : { text, run: { color: MUTED } };
}

const CONTACT_SEPARATOR = "  ·  ";

/**
 * The contact items, middle dots between them, broken between items only
 * (linesOfWholeItems): Word would break an address at its own hyphen. Word
 * does not say how wide its text is: a line holds what fits at 0.6 em a
 * character, wider than Calibri's letters but for a run of W's and @'s.
 */
function contactPieces(items: OutlineText[], contentWidth: number): Piece[] {
  const room = Math.floor(contentWidth / TWIPS_PER_POINT / (BODY_POINTS * 0.6));
  const lines = linesOfWholeItems(items, (item) => item.text.length, CONTACT_SEPARATOR.length, room);
  return lines.flatMap((line, i) => [
    ...(i ? [{ text: "\n", run: {} }] : []),
    ...line.flatMap((item, j) => [
      ...(j ? [{ text: CONTACT_SEPARATOR, run: { color: MUTED } }] : []),
      link(item),
    ]),
  ]);
}

/**
 * Dates with no-break spaces: past a heading that leaves them no room on its
 * line, Word and LibreOffice then move them whole to the next line (at the
 * tab stop), not "Oct" on one line and "2008 – Dec 2010" on the next.
 */
const unbroken = (dates: string) => dates.replaceAll(" ", "\u00A0");

function entryParagraphs(entry: OutlineEntry, contentWidth: number): Paragraph[] {
  const parts: [options: Omit<IParagraphOptions, "children">, pieces: Piece[]][] = [
    [
      { heading: HeadingLevel.HEADING_2, tabStops: [{ type: TabStopType.RIGHT, position: contentWidth }] },
      [
        { text: entry.heading },
        ...(entry.dates
          ? [{ text: `\t${unbroken(entry.dates)}`, run: { bold: false, color: MUTED, size: 19 } }]
          : []),
      ],
    ],
  ];
  const textLines = (text: string, color?: string) =>
    text.split(/\r?\n/).map((line) => [{}, [{ text: line, run: { color } }]] as (typeof parts)[number]);
  if (entry.details.length) parts.push(...textLines(entry.details.join(" · "), MUTED));
  if (entry.text) parts.push(...textLines(entry.text));
  if (entry.link) parts.push([{}, [link(entry.link)]]);
  for (const bullet of entry.bullets)
    parts.push([{ numbering: { reference: BULLETS, level: 0 } }, [{ text: bullet }]]);
  // Each paragraph but the last keeps with the next: an entry shorter than a page moves to the next
  // page whole, as the PDF's does, instead of leaving its last bullet alone there.
  return parts.map(([options, pieces], i) =>
    paragraph(i < parts.length - 1 ? { ...options, keepNext: true } : options, pieces),
  );
}

/**
 * The resume's language as Word marks a run's: Word keeps one language for
 * Latin text (`w:val`), one for Chinese, Japanese and Korean (`w:eastAsia`)
 * and one for right-to-left scripts (`w:bidi`), and spells and reads each
 * part of a text by its own. A resume in one of the latter two has its
 * language there; its Latin words (names, tools) keep Word's own.
 */
function wordLanguage(language: string | null): IRunOptions["language"] {
  if (language === null) return undefined;
  if (EAST_ASIAN_SCRIPTS.has(scriptOfLanguage(language) ?? "")) return { eastAsia: language };
  if (readsRightToLeftLanguage(language)) return { bidirectional: language };
  return { value: language };
}

/** The scripts Word counts as East Asian (scriptOfLanguage). */
const EAST_ASIAN_SCRIPTS = new Set(["Hans", "Hant", "Jpan", "Kore"]);

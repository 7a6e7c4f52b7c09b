import PDFDocument from "pdfkit";
import { bidiFeatures, sharedLineFeatures } from "./bidi-layout.ts";
import { pdfFontFamilyFor, type PdfFontFamily } from "./document-fonts.ts";
import { escapeHtml } from "../themes/theme-text-escaping.ts";
import {
  outlineTexts,
  type OutlineEntry,
  type OutlineSection,
  type OutlineText,
  type ResumeOutline,
} from "./resume-outline.ts";
import { linesOfWholeItems } from "./whole-item-lines.ts";
import { mapStrings } from "../map-strings.ts";

export const PAPER_SIZES = ["a4", "letter"] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

const MARGIN = 54; // 0.75 in
const INK = "#1a1a1a";
const MUTED = "#555555";
const LINK = "#1a4f8b";
const RULE = "#b8b8b8";
const SIZE = { name: 20, headline: 11, contact: 9, section: 10.5, heading: 10, body: 9.5, small: 9 };
const BULLET_INDENT = 12;
/** A tab, which the fonts have no glyph for (pdfkit would draw an empty box): this many spaces. */
const TAB = "    ";
/** The ideographic space (Japanese text), which the fonts have no glyph for: the em space, as wide. */
const IDEOGRAPHIC_SPACE = "\u3000";
const EM_SPACE = "\u2003";

type Doc = PDFKit.PDFDocument;
type TextOptions = PDFKit.Mixins.TextOptions;
type Element = PDFKit.PDFStructureElement;

/**
 * A structure element `type` under `parent`, its content what `draw` draws
 * (pdfkit draws it as the element joins the tree). The tree is what a screen
 * reader reads and in what order: a tagged PDF.
 */
function tagged(doc: Doc, parent: Element, type: string, draw: () => void): void {
  parent.add(doc.struct(type, {}, draw));
}

/** A structure element `type` under `parent`, for elements of its own (a section, an entry, a list). */
function group(doc: Doc, parent: Element, type: string): Element {
  const element = doc.struct(type);
  parent.add(element);
  return element;
}

/** What `draw` draws, marked as no part of the text (a rule, a separator): a screen reader skips it. */
function decoration(doc: Doc, draw: () => void): void {
  doc.markContent("Artifact", { type: "Layout" });
  draw();
  doc.endMarkedContent();
}

/**
 * The resume as a PDF (pdfkit, fonts embedded): name and contact at the top,
 * sections under ruled capitals, each entry's heading in bold with its dates
 * right-aligned on the same line. Real text (right-to-left runs stored in the
 * order they are drawn, as PDF viewers expect), links clickable,
 * the name as title and author. A page breaks between entries, never between
 * a section's heading and its first entry; only an entry longer than a page
 * is split. Tagged: headings (the name H1, sections H2, entries H3),
 * paragraphs, lists and links in reading order; the rules and the contact
 * line's separators are artifacts.
 */
export async function renderResumePdf(
  resume: ResumeOutline,
  paper: PaperSize,
  family: PdfFontFamily = pdfFontFamilyFor(outlineTexts(resume), resume.language).family,
): Promise<Buffer> {
  const outline = mapStrings(resume, (text) =>
    text.replaceAll("\t", TAB).replaceAll(IDEOGRAPHIC_SPACE, EM_SPACE),
  );
  const { regular, bold } = family;
  // pdfkit's types name only files; its font factory takes a parsed fontkit font as well.
  const doc = new PDFDocument({
    size: paper === "letter" ? "LETTER" : "A4",
    margin: MARGIN,
    font: regular as unknown as string,
    info: { Title: outline.name, Author: outline.name, Subject: "Resume", Creator: "Resume service" },
    displayTitle: true,
    // The catalog's /Lang: what a screen reader reads the text as.
    lang: outline.language ?? "en",
    tagged: true,
    // Tags (the structure tree, MarkInfo) are PDF 1.4 and later; pdfkit writes 1.3 unless told.
    pdfVersion: "1.7",
  });
  escapeInfoInXmp(doc);
  // Registered under their own names: pdfkit then finds each in its cache on every switch
  // (under any other name, it parses and compares the font again each time).
  for (const font of [regular, bold]) doc.registerFont(font.postscriptName, font as unknown as string);
  familyOfDocument.set(doc, family);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });

  const root = doc.struct("Document");
  doc.addStructure(root);
  drawHeader(doc, root, outline);
  for (const section of outline.sections) drawSection(doc, group(doc, root, "Sect"), section);
  root.end();
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

const width = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const left = (doc: Doc) => doc.page.margins.left;
const bottom = (doc: Doc) => doc.page.height - doc.page.margins.bottom;
const pageHeight = (doc: Doc) => bottom(doc) - doc.page.margins.top;

/** The family each document is drawn in (pdfFontFamilyFor its text). */
const familyOfDocument = new WeakMap<Doc, PdfFontFamily>();

function style(doc: Doc, font: "regular" | "bold", size: number, color = INK): Doc {
  return doc.font(familyOfDocument.get(doc)![font].postscriptName).fontSize(size).fillColor(color);
}

function drawHeader(doc: Doc, root: Element, outline: ResumeOutline) {
  tagged(doc, root, "H1", () => drawText(style(doc, "bold", SIZE.name), outline.name, { width: width(doc) }));
  if (outline.headline) {
    const headline = outline.headline;
    tagged(doc, root, "P", () =>
      drawText(style(doc, "regular", SIZE.headline, MUTED), headline, { width: width(doc) }),
    );
  }
  if (outline.contact.length) {
    doc.moveDown(0.3);
    drawInline(doc, group(doc, root, "P"), outline.contact, SIZE.contact);
  }
  doc.moveDown(0.6);
}

/** Items on one flowing line, separated by middle dots; links clickable (each a Link of `paragraph`). */
function drawInline(doc: Doc, paragraph: Element, items: OutlineText[], size: number) {
  const separator = "  ·  ";
  // Continued text takes the options of the text before it that it leaves unset, `features` too: on
  // a line with right-to-left letters, each text says its direction.
  const bidi = items.some((item) => bidiFeatures(item.text));
  const featuresOf = (text: string) => (bidi ? sharedLineFeatures(text) : undefined);
  const measured = style(doc, "regular", size);
  // A point to spare: pdfkit's own wrapping must never find the line a hair too long.
  const room = width(doc) - 1;
  const widthOf = (item: OutlineText) => measured.widthOfString(item.text);
  for (const line of linesOfWholeItems(items, widthOf, measured.widthOfString(separator), room)) {
    keepLinkOnPage(doc, line.map((item) => item.text).join(separator));
    line.forEach((item, i) => {
      const last = i === line.length - 1;
      tagged(doc, paragraph, item.url ? "Link" : "Span", () =>
        style(doc, "regular", size, item.url ? LINK : MUTED).text(item.text, {
          width: width(doc),
          link: item.url ? pdfUri(item.url) : null,
          continued: !last,
          features: featuresOf(item.text),
        }),
      );
      if (!last) {
        decoration(doc, () =>
          style(doc, "regular", size, MUTED).text(separator, {
            continued: true,
            link: null,
            features: featuresOf(separator),
          }),
        );
      }
    });
  }
  paragraph.end();
}

function drawSection(doc: Doc, element: Element, section: OutlineSection) {
  const headingHeight = sectionHeadingHeight(doc);
  // The title stays with what follows it: the first lines of a paragraph (which may go on over
  // the page), or the whole first entry when both fit a page.
  const first = section.paragraphs[0]
    ? Math.min(paragraphHeight(doc, section.paragraphs[0]), fewLines(doc))
    : entryHeight(doc, section.entries[0]!);
  keepTogether(doc, headingHeight + first);
  doc.moveDown(0.4);
  tagged(doc, element, "H2", () =>
    style(doc, "bold", SIZE.section).text(section.title.toUpperCase(), left(doc), doc.y, {
      width: width(doc),
      characterSpacing: 0.6,
    }),
  );
  const ruleY = doc.y + 1;
  decoration(doc, () =>
    doc
      .moveTo(left(doc), ruleY)
      .lineTo(left(doc) + width(doc), ruleY)
      .lineWidth(0.6)
      .strokeColor(RULE)
      .stroke(),
  );
  doc.y = ruleY + 5;

  for (const paragraph of section.paragraphs) {
    tagged(doc, element, "P", () =>
      drawText(style(doc, "regular", SIZE.body), paragraph, { width: width(doc), lineGap: 1.5 }, left(doc)),
    );
    doc.moveDown(0.4);
  }
  for (const entry of section.entries) {
    keepTogether(doc, entryHeight(doc, entry));
    drawEntry(doc, group(doc, element, "Div"), entry);
  }
  element.end();
}

/**
 * Starts a new page unless `height` fits below. What is taller than a page
 * starts where it is, when a few lines of it fit there.
 */
function keepTogether(doc: Doc, height: number) {
  const needed = height <= pageHeight(doc) ? height : fewLines(doc);
  if (doc.y + needed > bottom(doc)) doc.addPage();
}

/**
 * Starts a new page unless `text` (in the current font, the page's width) fits
 * below: a link split over two pages is hard to read, and pdfkit would tag
 * every part of it as on the page where it ends.
 */
function keepLinkOnPage(doc: Doc, text: string) {
  keepTogether(doc, doc.heightOfString(text, { width: width(doc) }));
}

/** Four lines of body text. */
function fewLines(doc: Doc): number {
  return 4 * style(doc, "regular", SIZE.body).currentLineHeight(true);
}

function sectionHeadingHeight(doc: Doc): number {
  style(doc, "bold", SIZE.section);
  return doc.currentLineHeight(true) * 1.4 + 6;
}

function paragraphHeight(doc: Doc, text: string): number {
  return textHeight(style(doc, "regular", SIZE.body), text, { width: width(doc), lineGap: 1.5 });
}

function datesWidth(doc: Doc, entry: OutlineEntry): number {
  return entry.dates ? style(doc, "regular", SIZE.small, MUTED).widthOfString(entry.dates) + 12 : 0;
}

/** What drawEntry takes, measured the same way. */
function entryHeight(doc: Doc, entry: OutlineEntry): number {
  const full = width(doc);
  let height = textHeight(style(doc, "bold", SIZE.heading), entry.heading, {
    width: full - datesWidth(doc, entry),
  });
  if (entry.details.length)
    height += textHeight(style(doc, "regular", SIZE.small), entry.details.join(" · "), { width: full });
  if (entry.text) height += textHeight(style(doc, "regular", SIZE.body), entry.text, { width: full });
  if (entry.link)
    height += style(doc, "regular", SIZE.small).heightOfString(entry.link.text, { width: full });
  style(doc, "regular", SIZE.body);
  for (const bullet of entry.bullets)
    height += textHeight(doc, bullet, { width: full - BULLET_INDENT, lineGap: 1 }) + 1;
  return height + doc.currentLineHeight(true) * 0.6;
}

/** An entry (`element`, a Div): its heading (H3), then its dates, beside the heading on the page. */
function drawEntry(doc: Doc, element: Element, entry: OutlineEntry) {
  const x = left(doc);
  const full = width(doc);
  const top = doc.y;
  const reserved = datesWidth(doc, entry);
  // The heading, then its dates beside it on its first line: a program that reads the text in the
  // order it is drawn (an applicant tracking system, `pdftotext -raw`) finds the title before its dates.
  tagged(doc, element, "H3", () =>
    drawText(style(doc, "bold", SIZE.heading), entry.heading, { width: full - reserved }, x),
  );
  const datesText = entry.dates;
  if (datesText) {
    const below = doc.y;
    tagged(doc, element, "P", () =>
      style(doc, "regular", SIZE.small, MUTED).text(datesText, x, top + 0.8, { width: full, align: "right" }),
    );
    // Back below the heading, in its style: the space after an entry of a heading alone is its line's.
    doc.y = below;
    style(doc, "bold", SIZE.heading);
  }
  if (entry.details.length) {
    const details = entry.details.join(" · ");
    tagged(doc, element, "P", () =>
      drawText(style(doc, "regular", SIZE.small, MUTED), details, { width: full }, x),
    );
  }
  if (entry.text) {
    const text = entry.text;
    tagged(doc, element, "P", () => drawText(style(doc, "regular", SIZE.body), text, { width: full }, x));
  }
  if (entry.link) {
    const { text, url } = entry.link;
    keepLinkOnPage(style(doc, "regular", SIZE.small), text);
    tagged(doc, group(doc, element, "P"), "Link", () =>
      style(doc, "regular", SIZE.small, LINK).text(text, x, doc.y, {
        width: full,
        link: url ? pdfUri(url) : null,
      }),
    );
  }
  if (entry.bullets.length) {
    const list = group(doc, element, "L");
    for (const bullet of entry.bullets) {
      style(doc, "regular", SIZE.body);
      if (doc.y + doc.currentLineHeight(true) > bottom(doc)) doc.addPage();
      const y = doc.y + 1;
      const item = group(doc, list, "LI");
      tagged(doc, item, "Lbl", () => doc.text("•", x + 2, y, { lineBreak: false }));
      doc.y = y;
      tagged(doc, item, "LBody", () =>
        drawText(doc, bullet, { width: full - BULLET_INDENT, lineGap: 1 }, x + BULLET_INDENT),
      );
      item.end();
    }
    list.end();
  }
  element.end();
  doc.x = x;
  doc.moveDown(0.6);
}

/**
 * pdfkit's text() at `x` (or where the last text left off) and the current
 * y, each paragraph of a text with right-to-left letters laid out in its own
 * direction (bidi-layout.ts); other text as pdfkit lays it out.
 */
function drawText(doc: Doc, text: string, options: TextOptions, x?: number): void {
  for (const { paragraph, features } of bidiParagraphs(text)) {
    if (x === undefined) doc.text(paragraph, { ...options, features });
    else doc.text(paragraph, x, doc.y, { ...options, features });
  }
}

/** What drawText takes of the page's height. */
function textHeight(doc: Doc, text: string, options: TextOptions): number {
  let height = 0;
  for (const { paragraph, features } of bidiParagraphs(text))
    height += doc.heightOfString(paragraph, { ...options, features });
  return height;
}

/** The text whole without a right-to-left letter, else its paragraphs, each with its direction's features. */
function bidiParagraphs(text: string): { paragraph: string; features?: TextOptions["features"] }[] {
  const paragraphs = text.split("\n").map((paragraph) => ({
    // A blank line stays a line: pdfkit moves down no line for an empty text.
    paragraph: paragraph === "" ? " " : paragraph,
    features: bidiFeatures(paragraph),
  }));
  return paragraphs.some(({ features }) => features) ? paragraphs : [{ paragraph: text }];
}

/**
 * A link as a PDF's URI action must hold it, in 7-bit ASCII (ISO 32000-1,
 * 12.6.4.7): the host in Punycode, the rest percent-encoded. pdfkit writes
 * any other text as UTF-16, which viewers read as garbage, so a link to
 * `https://müller-design.de/über-mich` went nowhere. The text shown stays as typed.
 */
function pdfUri(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return encodeURI(url);
  }
}

/**
 * pdfkit (0.20) writes the document's info (the name as title and author)
 * into the XMP metadata of a PDF 1.4 or later as it is, unescaped: a name
 * with `&` or `<` made that XML unreadable. The info dictionary is written
 * first, from the text itself; the XMP, last, then gets it escaped.
 */
function escapeInfoInXmp(doc: PDFKit.PDFDocument): void {
  const pdf = doc as PDFKit.PDFDocument & { endMetadata(): void };
  const endMetadata = pdf.endMetadata.bind(pdf);
  pdf.endMetadata = () => {
    pdf.info = Object.fromEntries(
      Object.entries(pdf.info).map(([key, value]) => [
        key,
        typeof value === "string" ? escapeHtml(value) : value,
      ]),
    ) as PDFKit.PDFDocument["info"];
    endMetadata();
  };
}

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
  type ParagraphChild,
} from "docx";
import type { PaperSize } from "./render-resume-pdf.ts";
import type { OutlineEntry, OutlineText, ResumeOutline } from "./resume-outline.ts";

/** Page sizes in twentieths of a point. */
const PAGE = { a4: { width: 11906, height: 16838 }, letter: { width: 12240, height: 15840 } };
const MARGIN = 1080; // 0.75 in
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
  const children: Paragraph[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(outline.name)] }),
  ];
  if (outline.headline)
    children.push(
      new Paragraph({ children: [new TextRun({ text: outline.headline, color: MUTED, size: 24 })] }),
    );
  if (outline.contact.length) children.push(new Paragraph({ children: inline(outline.contact) }));

  for (const section of outline.sections) {
    children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(section.title)] }));
    for (const paragraph of section.paragraphs) children.push(...lines(paragraph));
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
        document: { run: { font: "Calibri", size: 21 }, paragraph: { spacing: { after: 40 } } },
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

/** A paragraph per line of the user's text. */
function lines(text: string, options: { color?: string; keepNext?: boolean } = {}): Paragraph[] {
  return text.split(/\r?\n/).map(
    (line) =>
      new Paragraph({
        keepNext: options.keepNext,
        children: [new TextRun({ text: line, color: options.color })],
      }),
  );
}

/** The lines of one paragraph's text (a list item's), each after a line break of Word's own. */
function brokenLines(text: string): TextRun[] {
  return text.split(/\r?\n/).map((line, i) => new TextRun({ text: line, break: i > 0 ? 1 : undefined }));
}

function link({ text, url }: OutlineText): ParagraphChild {
  return url
    ? new ExternalHyperlink({ link: url, children: [new TextRun({ text, style: "Hyperlink" })] })
    : new TextRun({ text, color: MUTED });
}

/** Items on one line, separated by middle dots. */
function inline(items: OutlineText[]): ParagraphChild[] {
  return items.flatMap((item, i) => [
    ...(i ? [new TextRun({ text: "  ·  ", color: MUTED })] : []),
    link(item),
  ]);
}

/**
 * Dates with no-break spaces: past a heading that leaves them no room on its
 * line, Word and LibreOffice then move them whole to the next line (at the
 * tab stop), not "Oct" on one line and "2008 – Dec 2010" on the next.
 */
const unbroken = (dates: string) => dates.replaceAll(" ", "\u00A0");

function entryParagraphs(entry: OutlineEntry, contentWidth: number): Paragraph[] {
  const paragraphs = [
    new Paragraph({
      heading: HeadingLevel.HEADING_2,
      tabStops: [{ type: TabStopType.RIGHT, position: contentWidth }],
      children: [
        new TextRun(entry.heading),
        ...(entry.dates
          ? [new TextRun({ text: `\t${unbroken(entry.dates)}`, bold: false, color: MUTED, size: 19 })]
          : []),
      ],
    }),
  ];
  const more = entry.bullets.length > 0 || entry.text !== null || entry.link !== null;
  if (entry.details.length)
    paragraphs.push(...lines(entry.details.join(" · "), { color: MUTED, keepNext: more }));
  if (entry.text) paragraphs.push(...lines(entry.text));
  if (entry.link) paragraphs.push(new Paragraph({ children: [link(entry.link)] }));
  for (const bullet of entry.bullets) {
    paragraphs.push(
      new Paragraph({ numbering: { reference: BULLETS, level: 0 }, children: brokenLines(bullet) }),
    );
  }
  return paragraphs;
}

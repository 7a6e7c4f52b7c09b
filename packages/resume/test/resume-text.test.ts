import { describe, expect, it } from "vitest";
import { renderResumeText } from "../src/documents/render-resume-text.ts";
import type { ResumeOutline } from "../src/documents/resume-outline.ts";

const withBullets = (bullets: string[]): ResumeOutline => ({
  name: "Ada",
  language: null,
  headline: null,
  contact: [],
  sections: [
    {
      title: "Experience",
      paragraphs: [],
      entries: [{ heading: "Engineer — Acme", dates: null, details: [], text: null, bullets, link: null }],
    },
  ],
});

const withSummary = (summary: string): ResumeOutline => ({
  name: "Ada",
  language: null,
  headline: null,
  contact: [],
  sections: [{ title: "Summary", paragraphs: [summary], entries: [] }],
});

/** The lines of the summary's paragraph, as the text writes them. */
const summaryLines = (summary: string) => {
  const text = renderResumeText(withSummary(summary));
  return text
    .slice(text.indexOf("SUMMARY\n\n") + "SUMMARY\n\n".length)
    .trimEnd()
    .split("\n");
};

const graphemes = (text: string) =>
  Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text), (s) => s.segment);

describe("the plain-text resume", () => {
  it("breaks the contact line between its parts only: a label stays with its address", () => {
    const contact = [
      "Flat 4, 221B Baker Street, Marylebone, London NW1 6XE, United Kingdom",
      "zoe.lukasiewicz-angstrom@example-mail-provider.org",
      "+44 20 7946 0958",
      "github: github.com/zoe-lukasiewicz",
      "linkedin: www.linkedin.com/in/zoe-lukasiewicz-angstrom",
    ];
    const outline = {
      name: "Zoë",
      headline: null,
      contact: contact.map((text) => ({ text })),
      sections: [],
      language: null,
    };
    const lines = renderResumeText(outline).trimEnd().split("\n").slice(1);
    expect(lines.map((line) => line.split(" · "))).toEqual([
      [contact[0]],
      [contact[1], contact[2]],
      [contact[3], contact[4]],
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
  });

  it("indents a bullet's own later lines under its text, one starting with '- ' too: one bullet stays one", () => {
    // Before, "- then Y" started a line of its own and read as a second bullet.
    const text = renderResumeText(withBullets(["Led X\n- then Y", "Shipped"]));
    expect(text).toContain("- Led X\n  - then Y\n- Shipped\n");
  });

  it("wraps a bullet's long later line under its text, within 100 characters", () => {
    const long = `Led ${"the team ".repeat(15)}to launch`;
    const lines = renderResumeText(withBullets([`First\n${long}`])).split("\n");
    const at = lines.indexOf("- First");
    expect(lines.slice(at + 1).filter((line) => line.startsWith("  ")).length).toBeGreaterThan(1);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(100);
  });

  it("cuts a word longer than a line between characters, never inside one, and counts them as a reader does", () => {
    // Thai is written without spaces; a vowel sign (U+0E34) belongs to its consonant.
    const thai = `ก${"กิ".repeat(120)}`;
    const thaiLines = summaryLines(thai);
    expect(thaiLines.join("")).toBe(thai);
    // Before: cut at 100 code points, the second line started with the vowel sign alone.
    for (const line of thaiLines) expect(line, line).not.toMatch(/^\p{M}/u);
    // 100 characters a line (of 1 or 2 code points each), not 100 code points.
    expect(thaiLines.map((line) => graphemes(line).length)).toEqual([100, 21]);

    // A woman technologist is one emoji of three code points (👩, a zero-width joiner, 💻).
    const emoji = "👩‍💻".repeat(150);
    const emojiLines = summaryLines(emoji);
    expect(emojiLines.join("")).toBe(emoji);
    for (const line of emojiLines) expect(line).toMatch(/^(?:👩‍💻)+$/u);
    expect(emojiLines.map((line) => graphemes(line).length)).toEqual([100, 50]);
  });

  it("counts a long word's characters right across the lengths it reads them in (256 code units)", () => {
    // Three code units a character: the 256th unit falls inside one, which must not be cut there.
    const accented = "e\u0301\u0302".repeat(1_500);
    const lines = summaryLines(accented);
    expect(lines.join("")).toBe(accented);
    for (const line of lines) expect(line).toMatch(/^(?:e\u0301\u0302)+$/u);
    expect(lines.map((line) => graphemes(line).length)).toEqual([...Array(15).fill(100)]);
  });

  it("keeps the spaces between words as typed, but where a line breaks; a no-break space does not break", () => {
    const typed = "Dr.\u00A0Ada  Lovelace\u3000東京\u3000大阪, 100\u202F% sure";
    expect(summaryLines(typed)).toEqual([typed]);
    // A tab is one space: its width is unknown.
    expect(summaryLines("Dev\tOps")).toEqual(["Dev Ops"]);
    // Two words joined by a no-break space go to the next line together.
    expect(summaryLines(`${"x".repeat(95)} Mr.\u00A0Smith`)).toEqual(["x".repeat(95), "Mr.\u00A0Smith"]);
    // At a line break the spaces go: no line ends or starts with one.
    const spaced = Array.from({ length: 40 }, (_, i) => `word${i}`).join("\u3000\u3000");
    const lines = summaryLines(spaced);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(line).not.toMatch(/^\s|\s$/u);
      expect(graphemes(line).length).toBeLessThanOrEqual(100);
    }
    expect(lines.join("\u3000\u3000")).toBe(spaced);
  });
});

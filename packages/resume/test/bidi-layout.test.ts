import { describe, expect, it } from "vitest";
import { bidiFeatures, logicalRuns, readsRightToLeft, visualRuns } from "../src/documents/bidi-layout.ts";

const ltr = (text: string) => ({ text, rightToLeft: false });
const rtl = (text: string) => ({ text, rightToLeft: true });

describe("visualRuns", () => {
  it("keeps a right-to-left word in its place in a left-to-right line, the spaces around it too", () => {
    expect(visualRuns("Hello שלום world", false)).toEqual([ltr("Hello "), rtl("שלום"), ltr(" world")]);
  });

  it("draws a right-to-left line's runs from the right, a left-to-right word inside it as it reads", () => {
    expect(visualRuns("אני מפתח ב-TypeScript", true)).toEqual([ltr("TypeScript"), rtl("אני מפתח ב-")]);
    expect(visualRuns("עם 10 שנות", true)).toEqual([rtl(" שנות"), ltr("10"), rtl("עם ")]);
  });

  it("mirrors brackets in right-to-left runs only", () => {
    expect(visualRuns("עשרים (סוגריים) סוף.", true)).toEqual([rtl("עשרים )סוגריים( סוף.")]);
    expect(visualRuns("team of 5 (חמישה) people", false)).toEqual([
      ltr("team of 5 ("),
      rtl("חמישה"),
      ltr(") people"),
    ]);
  });

  it("puts a line's trailing white space last, where a left-aligned line ends", () => {
    expect(visualRuns("שלום עולם  ", true)).toEqual([rtl("שלום עולם"), ltr("  ")]);
  });

  it("reads a character outside the Basic Multilingual Plane by its direction, and keeps it whole", () => {
    // An emoji is neutral: between two Hebrew words it joins their run, as a space would.
    expect(visualRuns("Hello שלום 😀 עולם world", false)).toEqual([
      ltr("Hello "),
      rtl("שלום 😀 עולם"),
      ltr(" world"),
    ]);
    expect(visualRuns("שלום 😀 עולם", true)).toEqual([rtl("שלום 😀 עולם")]);
    expect(visualRuns("a 𝒳 שלום", false)).toEqual([ltr("a 𝒳 "), rtl("שלום")]);
    // Adlam is written right to left.
    expect(visualRuns("𞤀𞤁 abc", false)).toEqual([rtl("𞤀𞤁"), ltr(" abc")]);
    expect(bidiFeatures("📞 שלום")).toBe(bidiFeatures("שלום"));
  });
});

describe("bidiFeatures", () => {
  it("leaves text without right-to-left letters to pdfkit, and marks the rest by its first strong letter", () => {
    expect(bidiFeatures("Zoë Łukasiewicz (Дмитриевна) 10")).toBeUndefined();
    const [hebrewFirst, latinFirst] = [bidiFeatures("שלום world"), bidiFeatures("world שלום")];
    expect(hebrewFirst).toBeDefined();
    expect(latinFirst).toBeDefined();
    expect(hebrewFirst).not.toBe(latinFirst);
    expect(bidiFeatures("10 مرحبا")).toBe(hebrewFirst);
  });
});

describe("readsRightToLeft", () => {
  it("reads a paragraph by its first letter of a strong direction, past digits and punctuation", () => {
    expect(readsRightToLeft("אני מפתחת ב-TypeScript")).toBe(true);
    expect(readsRightToLeft("2019: مطورة")).toBe(true);
    expect(readsRightToLeft("Led a team of 5 (חמישה)")).toBe(false);
    expect(readsRightToLeft("Zoë (Дмитриевна) 10")).toBe(false);
    expect(readsRightToLeft("")).toBe(false);
  });
});

describe("logicalRuns", () => {
  it("cuts a paragraph in reading order where its direction changes", () => {
    // Brackets around English words in a Hebrew line go with those words (UAX #9, N0).
    expect(logicalRuns("אני ב-React Native (iOS).", true)).toEqual([
      rtl("אני ב-"),
      ltr("React Native (iOS)"),
      rtl("."),
    ]);
    expect(logicalRuns("Hello שלום world", false)).toEqual([ltr("Hello "), rtl("שלום"), ltr(" world")]);
    expect(logicalRuns("a 😀 שלום 😀", false)).toEqual([ltr("a 😀 "), rtl("שלום"), ltr(" 😀")]);
  });
});

import { describe, expect, it } from "vitest";
import { pdfFontFamilyFor } from "../src/documents/document-fonts.ts";
import { renderResumePdf } from "../src/documents/render-resume-pdf.ts";
import type { ResumeOutline } from "../src/documents/resume-outline.ts";
import { hasPoppler, notdefGlyphsDrawn, pdfInfo } from "../../../test/documents.ts";

const outline = (name: string, headline: string): ResumeOutline => ({
  name,
  language: null,
  headline,
  contact: [],
  sections: [],
});

describe("the PDF's text and metadata", () => {
  it.runIf(hasPoppler)(
    "names the person in the info and in XML metadata that reads, a name with & and < included",
    async () => {
      // pdfkit wrote the name into the XMP as it is: `<rdf:li>Ben & Jerry <Smith></rdf:li>`, not XML.
      const pdf = await renderResumePdf(outline("Ben & Jerry <Smith>", "Ice cream"), "a4");
      expect(await pdfInfo(pdf)).toMatch(/^Title: +Ben & Jerry <Smith>$/m);
      const xmp = await pdfInfo(pdf, "-meta");
      expect(xmp).toContain("<rdf:li>Ben &amp; Jerry &lt;Smith&gt;</rdf:li>");
      expect(xmp).not.toContain("Ben & Jerry");
    },
  );

  it("draws the ideographic space of Japanese text as an em space, not the font's empty box, and names none", async () => {
    // Pasted from a Japanese page between Latin words: a box was drawn, and the answer named nothing.
    const headline = "Taro\u3000Yamada";
    const pdf = await renderResumePdf(outline("Taro Yamada", headline), "a4");
    expect(notdefGlyphsDrawn(pdf)).toBe(0);
    expect(pdfFontFamilyFor([headline]).unrendered).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { renderResumePdf, type PaperSize } from "../src/documents/render-resume-pdf.ts";
import type { OutlineText, ResumeOutline } from "../src/documents/resume-outline.ts";
import { hasPoppler, pdfText } from "../../../test/documents.ts";

/**
 * Each link of a PDF (a Link structure element) with the pages its
 * annotations are on (the page whose /Annots lists them) and the pages its
 * tags say they are on (each OBJR's /Pg), read from the file's objects:
 * pdfkit writes those uncompressed.
 */
function linksOf(pdf: Buffer): { text: string; pages: number[]; taggedPages: number[] }[] {
  const source = pdf.toString("latin1");
  const objects = new Map<number, string>();
  for (const [, id, body] of source.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g))
    objects.set(Number(id), body!);
  const pageOfAnnotation = new Map<number, number>();
  for (const [page, body] of objects) {
    if (!/\/Type \/Page\s/.test(body)) continue;
    const annotations = /\/Annots \[([^\]]*)\]/.exec(body)?.[1] ?? "";
    for (const [, id] of annotations.matchAll(/(\d+) 0 R/g)) pageOfAnnotation.set(Number(id), page);
  }
  return [...objects.values()]
    .filter((body) => /\/S \/Link\s/.test(body))
    .map((body) => {
      const references = [...body.matchAll(/\/Type \/OBJR\s*\/Obj (\d+) 0 R\s*\/Pg (\d+) 0 R/g)];
      const annotations = references.map(([, id]) => objects.get(Number(id))!);
      return {
        text: /\/URI \((.*)\)/.exec(objects.get(Number(/\/A (\d+) 0 R/.exec(annotations[0]!)![1]))!)![1]!,
        pages: references.map(([, id]) => pageOfAnnotation.get(Number(id))!),
        taggedPages: references.map(([, , page]) => Number(page)),
      };
    });
}

const PAPERS: PaperSize[] = ["a4", "letter"];
const longUrl = (name: string) => `https://example.org/${name}/${"a-rather-long-path-segment/".repeat(8)}`;
const linkTo = (url: string): OutlineText => ({ text: url.replace("https://", ""), url });

describe("links in the PDF", () => {
  it.each(PAPERS)(
    "of an entry split over pages are each on one page, tagged as on it, wherever the page ends (%s)",
    async (paper) => {
      // Lines of text before the link, from more than a page to more than two: its place sweeps a whole page.
      for (let lines = 70; lines <= 140; lines++) {
        const outline: ResumeOutline = {
          name: "Zoe",
          language: null,
          headline: null,
          contact: [],
          sections: [
            {
              title: "Projects",
              paragraphs: [],
              entries: [
                {
                  heading: "A project",
                  dates: null,
                  details: [],
                  text: Array.from({ length: lines }, (_, i) => `Line ${i + 1}`).join("\n"),
                  bullets: [],
                  link: linkTo(longUrl("project")),
                },
              ],
            },
          ],
        };
        const [link] = linksOf(await renderResumePdf(outline, paper));
        expect(link!.pages.length, `${lines} lines`).toBeGreaterThan(1);
        expect(new Set(link!.pages).size, `${lines} lines`).toBe(1);
        expect(link!.taggedPages, `${lines} lines`).toEqual(link!.pages);
      }
    },
  );

  it("are written in ASCII, as a PDF's links must be: the host in Punycode, the rest percent-encoded; the text as typed", async () => {
    // pdfkit wrote them as UTF-16, which viewers read as garbage: the link went nowhere.
    const contact = [linkTo("https://müller-design.de/über-mich"), linkTo("https://例え.jp/verify")];
    const pdf = await renderResumePdf(
      { name: "Zoe", headline: null, contact, sections: [], language: null },
      "a4",
    );
    expect(linksOf(pdf).map((link) => link.text)).toEqual([
      "https://xn--mller-design-dlb.de/%C3%BCber-mich",
      "https://xn--r8jz45g.jp/verify",
    ]);
    if (hasPoppler) expect(await pdfText(pdf)).toContain("müller-design.de/über-mich");
  });

  it.each(PAPERS)(
    "in the contact line are each on one page, tagged as on it, when the links run over pages (%s)",
    async (paper) => {
      // Twenty addresses of 150 to 2,000 characters: the contact line runs over several pages.
      const contact = Array.from({ length: 20 }, (_, i) =>
        linkTo(`https://example.org/${i}/${"x".repeat(150 + i * 97)}`),
      );
      const links = linksOf(
        await renderResumePdf({ name: "Zoe", headline: null, contact, sections: [], language: null }, paper),
      );
      expect(links.map((link) => link.text)).toEqual(contact.map((item) => item.url));
      expect(new Set(links.flatMap((link) => link.pages)).size).toBeGreaterThan(2);
      links.forEach((link, i) => {
        expect(new Set(link.pages).size, `link ${i}`).toBe(1);
        expect(link.taggedPages, `link ${i}`).toEqual(link.pages);
      });
    },
  );
});

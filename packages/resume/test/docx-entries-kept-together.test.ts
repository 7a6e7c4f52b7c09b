import { expect, it } from "vitest";
import { renderResumeDocx } from "../src/documents/render-resume-docx.ts";
import type { ResumeOutline } from "../src/documents/resume-outline.ts";
import { docxPart } from "../../../test/documents.ts";

const JOB = {
  heading: "Engineer — Acme",
  dates: "Jan 2020 – Present",
  details: ["Berlin", "Contract"],
  text: "Two lines\nof text",
  link: { text: "acme.example", url: "https://acme.example/" },
  bullets: ["First", "Second", "Third"],
};

const OUTLINE: ResumeOutline = {
  name: "Kept Together",
  language: null,
  headline: null,
  contact: [],
  sections: [{ title: "Experience", paragraphs: [], entries: [JOB, { ...JOB, heading: "Intern — Beta" }] }],
};

it("keeps each paragraph of an entry with the next but its last: Word moves an entry shorter than a page whole", async () => {
  const xml = await docxPart(new Uint8Array(await renderResumeDocx(OUTLINE, "a4")), "word/document.xml");
  const paragraphs = [...xml.matchAll(/<w:p>([\s\S]*?)<\/w:p>/g)].map(([, paragraph]) => ({
    text: [...paragraph!.matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/g)].map(([, text]) => text).join(""),
    keepNext: /<w:keepNext\/>/.test(paragraph!),
  }));
  const first = paragraphs.findIndex((p) => p.text.startsWith("Engineer — Acme"));
  const second = paragraphs.findIndex((p) => p.text.startsWith("Intern — Beta"));
  // The heading, the details, two lines of text, the link, three bullets.
  expect(second - first).toBe(8);
  for (const entryStart of [first, second]) {
    const own = paragraphs.slice(entryStart, entryStart + 8);
    expect(own.map((p) => p.keepNext)).toEqual([true, true, true, true, true, true, true, false]);
  }
});

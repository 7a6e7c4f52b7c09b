import { marked } from "marked";
import { describe, expect, it } from "vitest";
import type { WholeResume } from "../src/index.ts";
import { renderResumeDocument } from "../src/documents/render-resume-document.ts";
import { renderResumeMarkdown } from "../src/markdown/render-resume-markdown.ts";
import { docxPart, hasPoppler, pdfText } from "../../../test/documents.ts";

const stored = (i: number) => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  created_at: "2026-11-26T10:00:00.000Z",
  updated_at: "2026-11-26T10:00:00.000Z",
});

/** A goal typed on three lines in the editor's text area (which sends CRLF), then a goal of one line. */
const RESUME = {
  profile: null,
  experience: [],
  education: [],
  skills: [],
  certifications: [],
  hobbies: [],
  goals: [
    {
      ...stored(1),
      description: "Learn Rust\r\nWrite a CLI in it\r\n- then publish a crate",
      category: "learning",
      target_date: "2027-10-01",
      date_precision: "month",
      status: "active",
    },
    {
      ...stored(2),
      description: "Run a marathon",
      category: "personal",
      target_date: null,
      date_precision: "month",
      status: "active",
    },
  ],
} as unknown as WholeResume;

const document = async (format: "pdf" | "docx" | "text") =>
  (await renderResumeDocument(RESUME, format, "a4")).body;

describe("a goal's description typed on several lines", () => {
  it("is in Markdown a list item: its first line and the goal's details, then its other lines after hard breaks", async () => {
    const markdown = renderResumeMarkdown(RESUME);
    expect(markdown).toContain(
      "- Learn Rust (learning · by Oct 2027 · active)  \n  Write a CLI in it  \n  \\- then publish a crate\n- Run a marathon",
    );
    const html = await marked.parse(markdown);
    expect(html).toContain(
      "<li>Learn Rust (learning · by Oct 2027 · active)<br>Write a CLI in it<br>- then publish a crate</li>",
    );
    expect(html.match(/<li>/g)).toHaveLength(2);
  });

  it("is in plain text the entry's heading line, its details, then its other lines", async () => {
    expect(await document("text")).toContain(
      "GOALS\n\nLearn Rust\nBy Oct 2027 · Learning · Active\nWrite a CLI in it\n- then publish a crate\n\nRun a marathon\n",
    );
  });

  it("is in the Word file a Heading 2 of its first line, its other lines a paragraph each", async () => {
    const xml = await docxPart(new Uint8Array((await document("docx")) as Buffer), "word/document.xml");
    const paragraphs = [...xml.matchAll(/<w:p>([\s\S]*?)<\/w:p>/g)].map(([, paragraph]) => ({
      heading: paragraph!.includes('<w:pStyle w:val="Heading2"/>'),
      text: [...paragraph!.matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/g)].map(([, text]) => text).join(""),
    }));
    const first = paragraphs.findIndex((paragraph) => paragraph.heading);
    expect(paragraphs.slice(first, first + 5)).toEqual([
      { heading: true, text: "Learn Rust\tBy\u00A0Oct\u00A02027" },
      { heading: false, text: "Learning · Active" },
      { heading: false, text: "Write a CLI in it" },
      { heading: false, text: "- then publish a crate" },
      { heading: true, text: "Run a marathon" },
    ]);
  });

  it.runIf(hasPoppler)("is in the PDF a heading of its first line, its other lines below it", async () => {
    // pdftotext finds the dates, right-aligned on the heading's line, apart from it.
    const lines = (await pdfText(new Uint8Array((await document("pdf")) as Buffer)))
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && line !== "By Oct 2027");
    const heading = lines.findIndex((line) => line.startsWith("Learn Rust"));
    expect(lines.slice(heading, heading + 4)).toEqual([
      "Learn Rust",
      "Learning · Active",
      "Write a CLI in it",
      "- then publish a crate",
    ]);
  });
});

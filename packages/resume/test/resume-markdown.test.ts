import { marked } from "marked";
import { describe, expect, it } from "vitest";
import type { WholeResume } from "../src/index.ts";
import { renderResumeMarkdown } from "../src/markdown/render-resume-markdown.ts";

const stored = { id: "00000000-0000-4000-8000-000000000000", created_at: "", updated_at: "" };

function resumeWith(text: string, gpa = text): WholeResume {
  return {
    profile: {
      ...stored,
      name: text,
      headline: text,
      summary: `${text}\n${text}\n\n${text}`,
      location: text,
      email: null,
      links: {},
      goals_summary: null,
    },
    experience: [
      {
        ...stored,
        organization: text,
        title: text,
        location: text,
        employment_type: "full-time",
        start_date: "2020-01-01",
        end_date: null,
        responsibilities: [text],
        accomplishments: [],
      },
    ],
    education: [
      {
        ...stored,
        institution: text,
        degree: text,
        field_of_study: null,
        location: null,
        start_date: "2010-09-01",
        end_date: null,
        gpa,
        honors: text,
        activities: null,
      },
    ],
    skills: [],
    certifications: [],
    hobbies: [{ ...stored, name: text, description: text }],
    goals: [{ ...stored, description: text, category: "learning", target_date: null, status: "active" }],
  } as unknown as WholeResume;
}

/** The elements marked makes of the resume's Markdown, in order. */
async function elementsOf(resume: WholeResume) {
  const html = await marked.parse(renderResumeMarkdown(resume));
  return { html, tags: [...html.matchAll(/<([a-z][a-z0-9]*)/g)].map((match) => match[1]) };
}

describe("the Markdown of a resume", () => {
  it("writes plain text as it is: a GPA 4.0, snake_case, 3 > 2, C:\\Users, #1, a line starting 4.0", () => {
    const markdown = renderResumeMarkdown(resumeWith("Physics", "4.0"));
    expect(markdown).toContain("GPA 4.0");
    for (const text of [
      "snake_case",
      "3 > 2",
      "C:\\Users",
      "#1 seller",
      "4.0 average",
      "rock & roll",
      "Wow!",
    ]) {
      const markdown = renderResumeMarkdown(resumeWith(text));
      // Inside a line (the GPA, a hobby's description) and starting a list item (a responsibility).
      expect(markdown).toContain(`GPA ${text}`);
      expect(markdown).toContain(` — ${text}\n`);
      expect(markdown).toContain(`\n- ${text}\n`);
    }
  });

  it("keeps the lines of a list item's free text: a responsibility, honors, activities, a hobby's description", async () => {
    const twoLines = "First line\r\n- second, not an item";
    const resume = resumeWith("plain");
    resume.experience[0]!.responsibilities = [twoLines];
    Object.assign(resume.education[0]!, { honors: twoLines, activities: twoLines });
    resume.hobbies[0]!.description = twoLines;
    const { html, tags } = await elementsOf(resume);
    const plain = await elementsOf(resumeWith("plain"));
    // One more list item (the activities), and one more line break in each of the four.
    expect(tags.filter((tag) => tag === "li")).toHaveLength(
      plain.tags.filter((tag) => tag === "li").length + 1,
    );
    expect(tags.filter((tag) => tag === "br")).toHaveLength(
      plain.tags.filter((tag) => tag === "br").length + 4,
    );
    for (const lead of ["<li>", "<li>Honors: ", "<li>Activities: ", "<li><strong>plain</strong> — "]) {
      expect(html, lead).toContain(`${lead}First line<br>- second, not an item</li>`);
    }
  });

  it("keeps a line broken with a lone CR, U+2028 or U+2029 as the files do, in a summary and in a list item", async () => {
    const resume = resumeWith("plain");
    resume.profile!.summary = "First para\u2028second line\r\rNew para";
    resume.experience[0]!.responsibilities = ["Led X\r- then Y", "Shipped\u2029on time"];
    const { html } = await elementsOf(resume);
    expect(html).toContain("<p>First para<br>second line</p>\n<p>New para</p>");
    expect(html).toContain("<li>Led X<br>- then Y</li>");
    expect(html).toContain("<li>Shipped<br>on time</li>");
  });

  it("leaves out control characters, which a terminal would act on, before escaping: none unmasks markup", async () => {
    const resume = resumeWith("plain");
    resume.profile!.name = "Eve\u001b[31m Red\u001b]0;owned\u0007";
    // Each U+0001 stood beside what the escaping looked at: left out after it, markup came through.
    resume.profile!.summary = "\u0001# Injected heading\n\u0001---";
    resume.experience[0]!.responsibilities = [
      "\\\u0001[click me\\\u0001](https://evil.example)",
      "\\\u0001*em\\\u0001*",
      "ada\u0001@example.org and www\u0001.evil.com",
      "Led\u009b2J X",
    ];
    const markdown = renderResumeMarkdown(resume);
    expect(markdown).toContain("# Eve\\[31m Red\\]0;owned");
    expect(markdown).toContain("Led2J X");
    expect(markdown).not.toMatch(/(?![\t\n])\p{Cc}/u);
    const { html } = await elementsOf(resume);
    expect(html).not.toMatch(/<h1>Injected|<hr>|<a href="https:\/\/evil|<em>em|mailto:ada|www\.evil\.com"/);
    expect(html).toContain("[click me");
  });

  it("escapes what would be markup wherever the text lands, and shows it as typed", async () => {
    const plain = await elementsOf(resumeWith("plain"));
    for (const text of [
      "1. numbered",
      "2) numbered",
      "- item",
      "+ item",
      "# heading",
      "#",
      "a #",
      "> quote",
      "===",
      "---",
      "-- -",
      "*em* _em_ __strong__ `code` ~~gone~~",
      "[link](page.html) ![img](i.png) [ref]: page.html",
      "<b>x</b> &amp; &#60;",
      "| a | b |",
      "trailing\\",
      "\\*not em\\*",
    ]) {
      // Text typed into every field makes the same elements as a plain word does.
      const { html, tags } = await elementsOf(resumeWith(text));
      expect(tags, text).toEqual(plain.tags);
      const unescaped = text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
      expect(html, text).toContain(unescaped.replaceAll('"', "&quot;"));
    }
  });
});

describe("the Markdown's links", () => {
  /** The links marked makes of a resume with these profile links: each one's address and text. */
  async function linksOf(links: Record<string, string>) {
    const resume = resumeWith("plain");
    const html = await marked.parse(
      renderResumeMarkdown({ ...resume, profile: { ...resume.profile!, links } } as WholeResume),
    );
    return [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map(([, href, text]) => ({ href, text }));
  }

  it("go to the address as stored: a backslash in it is percent-encoded, not read as an escape", async () => {
    // Before, `[weird](https://example.com/a\)` was no link at all, and `\*` linked to `*`.
    expect(
      await linksOf({
        weird: "https://example.com/a\\",
        star: "https://ok.io/\\*x",
        brackets: "https://ok.io/a_(b)\\_c",
      }),
    ).toEqual([
      { href: "https://example.com/a%5C", text: "weird" },
      { href: "https://ok.io/%5C*x", text: "star" },
      { href: "https://ok.io/a_%28b%29%5C_c", text: "brackets" },
    ]);
  });
});

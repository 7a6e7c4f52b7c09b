import { describe, expect, it } from "vitest";
import { renderResumeText } from "../src/documents/render-resume-text.ts";
import type { ResumeOutline } from "../src/documents/resume-outline.ts";

const withBullets = (bullets: string[]): ResumeOutline => ({
  name: "Ada",
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

describe("the plain-text resume", () => {
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
});

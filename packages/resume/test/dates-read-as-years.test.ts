import { describe, expect, it } from "vitest";
import { COLLECTIONS, type WholeResume } from "../src/index.ts";
import { resumeOutline } from "../src/documents/resume-outline.ts";
import type { KeptJsonResume } from "../src/json-resume/kept-json-resume.ts";
import { toJsonResume } from "../src/json-resume/to-json-resume.ts";
import { renderResumeMarkdown } from "../src/markdown/render-resume-markdown.ts";
import { readResumeImport } from "../src/read-resume-import.ts";

/**
 * An entry's `date_precision`: dates that read as years alone (`2008 – 2012`)
 * where a JSON Resume document gave years alone, everywhere the resume is
 * shown, and written back as years alone.
 */
const DOCUMENT = {
  basics: { name: "Ada Byron" },
  work: [
    { name: "Acme", position: "Engineer", startDate: "2014", endDate: "2015-06" },
    { name: "Initech", position: "Intern", startDate: "2012", endDate: "2012" },
  ],
  education: [{ institution: "Uni", studyType: "BSc", area: "Maths", startDate: "2008", endDate: "2012" }],
  certificates: [
    { name: "CKA", issuer: "CNCF", date: "2020" },
    { name: "PMP", issuer: "PMI", date: "2021-03-04" },
  ],
  meta: {
    "x-resume": { goals: [{ description: "Speak at a conference", category: "career", targetDate: "2027" }] },
  },
};

/** The import stored as GET /me/resume answers it, and what it kept of the document. */
function imported(): { resume: WholeResume; kept: KeptJsonResume } {
  const { resume, kept } = readResumeImport("jsonresume", structuredClone(DOCUMENT));
  const whole: Record<string, unknown> = { profile: { ...resume.profile, created_at: "", updated_at: "" } };
  const items: KeptJsonResume["items"] = {};
  for (const { name } of COLLECTIONS) {
    whole[name] = resume[name].map((entry, position) => {
      const id = `00000000-0000-4000-8000-${String(Object.keys(items).length).padStart(12, "0")}`;
      items[id] = { position, item: kept!.items[name][position]! };
      return { id, ...entry, created_at: "", updated_at: "" };
    });
  }
  return { resume: whole as unknown as WholeResume, kept: { document: kept!.document, items } };
}

describe("dates that read as years", () => {
  it("are an import's entries whose dates are all years alone; a month or a full date anywhere keeps months", () => {
    const { resume } = imported();
    expect(resume.experience.map((e) => [e.organization, e.date_precision])).toEqual([
      ["Acme", "month"],
      ["Initech", "year"],
    ]);
    expect(resume.experience[1]).toMatchObject({ start_date: "2012-01-01", end_date: "2012-01-01" });
    expect(resume.education[0]!.date_precision).toBe("year");
    expect(resume.certifications.map((c) => c.date_precision)).toEqual(["year", "month"]);
    expect(resume.goals[0]!.date_precision).toBe("year");
    // The service's own JSON without the field: months, as before it existed.
    const own = readResumeImport("json", {
      education: [{ institution: "Uni", degree: "BSc", start_date: "2008-01-01" }],
    });
    expect(own.resume.education[0]!.date_precision).toBe("month");
  });

  it("read as years in the Markdown and in the files' outline, a range within one year as that year", () => {
    const { resume } = imported();
    const markdown = renderResumeMarkdown(resume);
    expect(markdown).toContain("*2008 – 2012*");
    expect(markdown).toContain("*Jan 2014 – Jun 2015*");
    expect(markdown).toContain("*2012*");
    expect(markdown).toContain("issued 2020");
    expect(markdown).toContain("issued Mar 2021");
    expect(markdown).toContain("by 2027");
    expect(markdown).not.toMatch(/Jan 20(08|12|20|27)/);

    const dates = resumeOutline(resume).sections.flatMap((section) =>
      section.entries.map((entry) => entry.dates),
    );
    expect(dates).toEqual(
      expect.arrayContaining([
        "Jan 2014 – Jun 2015",
        "2012",
        "2008 – 2012",
        "Issued 2020",
        "Issued Mar 2021",
        "By 2027",
      ]),
    );
  });

  it("are written back to JSON Resume as years alone, and as full dates once they read with months", () => {
    const { resume, kept } = imported();
    // Unchanged: the document's own spelling.
    expect(toJsonResume(resume, kept).education).toEqual(DOCUMENT.education);
    // Without what an import kept (a resume typed in the editor): years alone too.
    const fresh = toJsonResume(resume);
    expect((fresh.education as object[])[0]).toMatchObject({ startDate: "2008", endDate: "2012" });
    expect((fresh.certificates as object[]).map((c) => (c as { date: string }).date)).toEqual([
      "2020",
      "2021-03-04",
    ]);

    // A date changed on an entry that reads as years: its year.
    resume.education[0]!.end_date = "2013-01-01";
    expect((toJsonResume(resume, kept).education as object[])[0]).toMatchObject({
      startDate: "2008",
      endDate: "2013",
    });
    // Switched to months: every date in full, so that importing the export gives months again.
    resume.education[0]!.date_precision = "month";
    const monthly = toJsonResume(resume, kept);
    expect((monthly.education as object[])[0]).toMatchObject({
      startDate: "2008-01-01",
      endDate: "2013-01-01",
    });
    expect(readResumeImport("jsonresume", monthly).resume.education[0]!.date_precision).toBe("month");
  });

  it("are not what an entry with months reads as once its export is imported again, whatever was cleared", () => {
    const { resume, kept } = imported();
    // "2014" to "2015-06" reads with months; its month end cleared, "2014" alone would read as a year.
    resume.experience[0]!.end_date = null;
    const exported = toJsonResume(resume, kept);
    const acme = (exported.work as Record<string, unknown>[]).find((job) => job.name === "Acme")!;
    expect([acme.startDate, "endDate" in acme]).toEqual(["2014-01-01", false]);
    const again = readResumeImport("jsonresume", exported).resume.experience;
    expect(again.map((e) => [e.organization, e.date_precision])).toEqual([
      ["Acme", "month"],
      ["Initech", "year"],
    ]);
  });
});

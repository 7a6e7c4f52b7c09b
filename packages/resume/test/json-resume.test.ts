import { describe, expect, it } from "vitest";
import { DomainError } from "@app/rest";
import { COLLECTIONS, type WholeResume } from "../src/index.ts";
import { toJsonResume } from "../src/json-resume/to-json-resume.ts";
import { readResumeImport } from "../src/read-resume-import.ts";
import { COMPLETE, MINIMAL } from "../../../test/resume-fixtures.ts";
import { jsonResumeErrors, SAMPLE_RESUMES } from "../../../test/json-resume-validators.ts";

const PROFILE = {
  name: "Grace Hopper",
  headline: "Rear Admiral",
  summary: "Invented the first compiler.",
  location: "Arlington, VA",
  city: "Arlington",
  region: "Virginia",
  postal_code: "22201",
  country_code: "US",
  email: "grace@example.org",
  phone: "+1 703 555 0100",
  links: { github: "https://github.com/grace", site: "https://grace.example/" },
  goals_summary: "Teach everyone to program.",
  language: "en-US",
};

/** A stored resume as GET /me/resume answers it: every collection with a complete and a minimal entry. */
function storedResume(): WholeResume {
  const server = (kind: string, i: number) => ({
    id: `00000000-0000-4000-8000-00000000000${i}`,
    entity_type: kind,
    pk: "USER#u",
    sk: `${kind.toUpperCase()}#${i}`,
    created_at: "2026-11-26T10:00:00.000Z",
    updated_at: "2026-11-26T10:00:00.000Z",
  });
  const resume: Record<string, unknown> = {
    profile: {
      ...PROFILE,
      entity_type: "profile",
      pk: "USER#u",
      sk: "PROFILE",
      created_at: "",
      updated_at: "",
    },
  };
  for (const c of COLLECTIONS) {
    resume[c.name] = [COMPLETE[c.name], MINIMAL[c.name]].map((body, i) => ({
      ...server(c.entityType, i),
      ...(c.fields.parse(body) as object),
    }));
  }
  return resume as WholeResume;
}

/** The fields of a stored resume that an import writes: no server fields. */
function fieldsOf(resume: WholeResume) {
  const strip = ({ id, entity_type, pk, sk, created_at, updated_at, ...fields }: Record<string, unknown>) => (
    void [id, entity_type, pk, sk, created_at, updated_at],
    fields
  );
  return {
    profile: resume.profile && strip(resume.profile),
    ...Object.fromEntries(COLLECTIONS.map((c) => [c.name, (resume[c.name] as never[]).map(strip)])),
  };
}

function importIssues(format: "json" | "jsonresume", document: unknown) {
  try {
    readResumeImport(format, document);
  } catch (error) {
    if (error instanceof DomainError)
      return (error.details as { issues: { path: string; message: string }[] }).issues;
    throw error;
  }
  throw new Error("the import was accepted");
}

describe("JSON Resume export", () => {
  it("is valid against resume-schema 1.0.0 and the current @jsonresume/schema", async () => {
    const exported = toJsonResume(storedResume());
    expect(await jsonResumeErrors(exported)).toEqual({ published: null, current: null });
  });

  it("of entries dated in years is valid against the current schema; resume-schema 1.0.0 refuses only a certificate's year", async () => {
    const resume = storedResume();
    for (const c of COLLECTIONS)
      for (const entry of resume[c.name] as Record<string, unknown>[])
        if ("date_precision" in entry) entry.date_precision = "year";
    const exported = toJsonResume(resume);
    expect((exported.certificates as { date: string }[]).map((c) => c.date)).toEqual(["2021", "2022"]);
    const errors = await jsonResumeErrors(exported);
    expect(errors.current).toBeNull();
    // 1.0.0 declares certificates[].date a whole day (`format: date`), unlike every other date it has.
    const refused = (errors.published ?? []) as { code: string; path: string }[];
    expect(refused.length).toBeGreaterThan(0);
    for (const error of refused) {
      expect(error.code).toBe("INVALID_FORMAT");
      expect(error.path).toMatch(/^#\/certificates\/[01]\/date$/);
    }
  });

  it("maps every field of every collection, and imports again as the same resume", () => {
    const resume = storedResume();
    const exported = toJsonResume(resume);
    expect(exported.basics).toEqual({
      name: "Grace Hopper",
      label: "Rear Admiral",
      summary: "Invented the first compiler.",
      email: "grace@example.org",
      phone: "+1 703 555 0100",
      location: {
        address: "Arlington, VA",
        city: "Arlington",
        region: "Virginia",
        postalCode: "22201",
        countryCode: "US",
      },
      profiles: [
        { network: "github", url: "https://github.com/grace" },
        { network: "site", url: "https://grace.example/" },
      ],
    });
    expect((exported.work as object[])[0]).toEqual({
      name: "Acme",
      position: "Senior Engineer",
      location: "Berlin",
      "x-employmentType": "contract",
      startDate: "2019-04-01",
      endDate: "2021-06-30",
      "x-responsibilities": ["Build the billing system", "Mentor two engineers"],
      highlights: ["Cut invoice time by 80%"],
    });
    expect((exported.meta as Record<string, unknown>)["x-resume"]).toEqual({
      goalsSummary: "Teach everyone to program.",
      language: "en-US",
      goals: [
        { description: "Run a marathon", category: "personal", targetDate: "2027-10-01", status: "active" },
        { description: "Learn Rust", category: "learning", status: "active" },
      ],
    });
    const imported = readResumeImport("jsonresume", JSON.parse(JSON.stringify(exported)));
    expect(imported.ignored).toEqual([]);
    expect(imported.resume).toEqual(fieldsOf(resume));
  });

  it("leaves the profile out when there is none", () => {
    const exported = toJsonResume({ ...storedResume(), profile: null });
    expect(exported).not.toHaveProperty("basics");
    expect(readResumeImport("jsonresume", exported).resume.profile).toBeNull();
  });
});

describe("JSON Resume import", () => {
  it("reads both packages' sample resumes, listing what has no field", () => {
    for (const sample of Object.values(SAMPLE_RESUMES)) {
      const { resume, ignored } = readResumeImport("jsonresume", sample);
      expect(resume.profile?.name).toBe("Richard Hendriks");
      expect(resume.experience.length).toBe((sample.work as unknown[]).length);
      expect(ignored).toEqual(
        expect.arrayContaining([
          "$schema",
          "volunteer",
          "awards",
          "publications",
          "languages",
          "references",
          "projects",
          "basics.image",
          "work[0].url",
          "work[0].description",
          "education[0].url",
          "education[0].courses",
          "interests[0].keywords",
          "meta.version",
        ]),
      );
      for (const stored of ["basics.phone", "basics.location.postalCode", "skills[0].keywords"])
        expect(ignored).not.toContain(stored);
    }
    const { resume } = readResumeImport("jsonresume", SAMPLE_RESUMES.published);
    expect(resume.profile).toMatchObject({
      headline: "Programmer",
      location: "2712 Broadway St",
      city: "San Francisco",
      region: "California",
      postal_code: "CA 94115",
      country_code: "US",
      phone: "(912) 555-4321",
      links: {
        website: "http://richardhendricks.example.com",
        SoundCloud: "https://soundcloud.example.com/dandymusicnl",
      },
    });
    expect(resume.experience[0]).toMatchObject({
      organization: "Pied Piper",
      title: "CEO/President",
      start_date: "2013-12-01",
      responsibilities: [expect.stringMatching(/^Pied Piper is a multi-platform/)],
      accomplishments: expect.arrayContaining(["Successfully won Techcrunch Disrupt"]),
    });
    expect(resume.skills[0]).toEqual({
      name: "Web Development",
      category: "tool",
      proficiency: "expert",
      years_experience: null,
      keywords: ["HTML", "CSS", "Javascript"],
    });
    expect(resume.education[0]).toMatchObject({
      degree: "Bachelor",
      field_of_study: "Information Technology",
      gpa: "4.0",
    });
  });

  it("reads partial dates as their first day and unknown levels as intermediate", () => {
    const { resume } = readResumeImport("jsonresume", {
      work: [{ name: "Acme", position: "Dev", startDate: "2014", endDate: "2015-06" }],
      skills: [
        { name: "Go", level: "ADVANCED" },
        { name: "Rust", level: "Wizard" },
        // A number, as some tools write (4 of 5), is an unknown level too (before: refused as not a text).
        { name: "Zig", level: 4 },
      ],
    });
    expect(resume.experience[0]).toMatchObject({ start_date: "2014-01-01", end_date: "2015-06-01" });
    expect(resume.skills.map((s) => s.proficiency)).toEqual(["advanced", "intermediate", "intermediate"]);
    // Trimmed, as a full date is.
    const spaced = readResumeImport("jsonresume", {
      work: [{ name: "Acme", position: "Dev", startDate: " 2014", endDate: "2015-06\n" }],
    });
    expect(spaced.resume.experience[0]).toMatchObject({ start_date: "2014-01-01", end_date: "2015-06-01" });
  });

  it("names errors by the document's own paths", () => {
    expect(
      importIssues("jsonresume", {
        basics: { name: " ", email: "nope", profiles: [{ network: "x", url: "ftp://x" }] },
        work: [
          { name: "Acme", position: "Dev", startDate: "2020-01-01" },
          { name: "Acme", position: "Dev", startDate: "June 2014", endDate: "2013-01-01" },
        ],
        certificates: [{ name: "CKA", date: "2020-01-01" }],
        meta: { "x-resume": { goals: [{ description: "x", category: "hobby" }] } },
      }).map((issue) => issue.path),
    ).toEqual([
      "basics.name",
      "basics.email",
      "basics.profiles[0].url",
      // Only the date that is wrong: its end is not compared with a start that is no date.
      "work[1].startDate",
      "certificates[0].issuer",
      'meta["x-resume"].goals[0].category',
    ]);
    expect(
      importIssues("jsonresume", { work: [{ name: "A", position: "B", startDate: "2020-13" }] }),
    ).toEqual([{ path: "work[0].startDate", message: "must be a real date: YYYY-MM-DD, YYYY-MM or YYYY" }]);
    expect(
      importIssues("jsonresume", {
        work: [{ name: "A", position: "B", startDate: "2020", endDate: "2019" }],
      }),
    ).toEqual([{ path: "work[0].endDate", message: "must not be before startDate" }]);
  });

  it("refuses a document whose shape is wrong, at the place that is", () => {
    expect(importIssues("jsonresume", [])).toEqual([
      { path: "", message: "must be a JSON Resume document (an object)" },
    ]);
    expect(importIssues("jsonresume", { work: {}, skills: [1], basics: "me" })).toEqual([
      { path: "basics", message: "must be an object" },
      { path: "work", message: "must be an array" },
      { path: "skills[0]", message: "must be an object" },
    ]);
    // An item that is no object is told at its own index; the list's other issues wait for its shape
    // (read without it, the items after it would be told at the wrong index).
    expect(
      importIssues("jsonresume", {
        work: ["CEO at Acme", { name: "Beta", position: "CTO", startDate: "2020", endDate: "2019" }],
        basics: {
          profiles: [
            7,
            { network: "gh", url: "https://a.example" },
            { network: "gh", url: "https://b.example" },
          ],
        },
      }),
    ).toEqual([
      { path: "basics.profiles[0]", message: "must be an object" },
      { path: "work[0]", message: "must be an object" },
    ]);
    expect(
      importIssues("jsonresume", {
        basics: {
          name: "A",
          profiles: [
            { network: "gh", url: "https://a.example" },
            { network: "gh", url: "https://b.example" },
          ],
        },
      }),
    ).toEqual([{ path: "basics.profiles[1].network", message: '"gh" appears twice' }]);
  });

  it("refuses a 201st entry at its path", () => {
    const work = Array.from({ length: 201 }, () => ({ name: "A", position: "B", startDate: "2020" }));
    expect(importIssues("jsonresume", { work })).toEqual([
      { path: "work[200]", message: "at most 200 experience entries" },
    ]);
    const experience = Array.from({ length: 201 }, () => MINIMAL.experience);
    expect(importIssues("json", { experience })).toEqual([
      { path: "experience[200]", message: "at most 200 experience entries" },
    ]);
  });

  it("answers a long list of things that are no entries with one issue, not one per item", () => {
    expect(importIssues("jsonresume", { work: Array(300_000).fill(0) })).toEqual([
      { path: "work[200]", message: "at most 200 experience entries" },
    ]);
    const profiles = Array(51).fill(0);
    expect(importIssues("jsonresume", { basics: { name: "A", profiles } })).toEqual([
      { path: "basics.profiles[50]", message: "at most 50 profiles" },
    ]);
  });

  it("counts only the profiles with a URL toward the 20 links", () => {
    const withUrl = (i: number) => ({ network: `Site ${i}`, url: `https://site${i}.example/ada` });
    const withoutUrl = (i: number) => ({ network: `Chat ${i}`, username: "ada" });
    const read = (profiles: unknown[]) => readResumeImport("jsonresume", { basics: { name: "A", profiles } });
    // 20 links among 15 profiles without one: all 20 kept, the others set aside as before.
    const mixed = [
      ...Array.from({ length: 20 }, (_, i) => withUrl(i)),
      ...Array.from({ length: 15 }, (_, i) => withoutUrl(i)),
    ];
    const imported = read(mixed);
    expect(Object.keys(imported.resume.profile?.links ?? {})).toHaveLength(20);
    expect(imported.ignored).toContain("basics.profiles[34]");
    // The 21st link is refused at its own place, once, however many follow it.
    const tooMany = [withoutUrl(0), ...Array.from({ length: 23 }, (_, i) => withUrl(i))];
    expect(importIssues("jsonresume", { basics: { name: "A", profiles: tooMany } })).toEqual([
      { path: "basics.profiles[21]", message: "at most 20 links" },
    ]);
  });

  it("reads a profile without a network as the link named by its URL's host", () => {
    const links = (profiles: unknown[]) =>
      readResumeImport("jsonresume", { basics: { name: "A", profiles } }).resume.profile?.links;
    expect(
      links([
        { url: "https://blog.example.org/ada", username: "ada" },
        { network: null, url: "https://b.example" },
        { network: " ", url: "https://c.example" },
        { network: "GitHub", url: "https://github.com/ada" },
      ]),
    ).toEqual({
      "blog.example.org": "https://blog.example.org/ada",
      "b.example": "https://b.example",
      "c.example": "https://c.example",
      GitHub: "https://github.com/ada",
    });
    expect(
      importIssues("jsonresume", {
        basics: { name: "A", profiles: [{ url: "https://a.example/x" }, { url: "https://a.example/y" }] },
      }),
    ).toEqual([
      {
        path: "basics.profiles[1].url",
        message: 'its host "a.example" names another link: give it a network',
      },
    ]);
    expect(
      importIssues("jsonresume", {
        basics: { name: "A", profiles: [{ network: 7, url: "https://a.example" }] },
      }),
    ).toEqual([{ path: "basics.profiles[0].network", message: "must be a string" }]);
    for (const network of [undefined, null, " "]) {
      expect(
        importIssues("jsonresume", { basics: { name: "A", profiles: [{ network, url: "my blog" }] } }),
      ).toEqual([{ path: "basics.profiles[0].url", message: "must be an absolute http(s) URL" }]);
    }
    // A host too long for a link name: said at the URL, which the document has, and why.
    const url = `https://${"h".repeat(60)}.example.org/`;
    expect(importIssues("jsonresume", { basics: { name: "A", profiles: [{ url }] } })).toEqual([
      {
        path: "basics.profiles[0].url",
        message:
          "its host names the link (the profile has no network), and link names have at most 50 characters: give it a network",
      },
    ]);
    expect(
      importIssues("jsonresume", { basics: { name: "A", profiles: [{ network: "n".repeat(51), url }] } }),
    ).toEqual([{ path: "basics.profiles[0].network", message: "link names have at most 50 characters" }]);
  });

  it("refuses a profile whose network is __proto__, as the service's own JSON does", () => {
    for (const url of ["https://a.example", { x: 1 }]) {
      expect(
        importIssues("jsonresume", { basics: { name: "A", profiles: [{ network: "__proto__", url }] } }),
      ).toEqual([{ path: "basics.profiles[0].network", message: expect.any(String) }]);
    }
  });
});

describe("JSON Resume files as other tools write them", () => {
  it('reads work[].company as the name, a timestamp as its day, an end of "present" as none, and loses nothing', () => {
    const document = {
      basics: { name: "Old Schema" },
      work: [
        {
          company: "Pied Piper",
          position: "CEO",
          startDate: "2019-03-01T00:00:00.000Z",
          endDate: "Present",
        },
        {
          name: "Hooli",
          company: "Hooli XYZ",
          position: "Engineer",
          startDate: "2017-06-15T09:30:00+02:00",
          endDate: "PRESENT ",
        },
      ],
      certificates: [{ name: "CKA", issuer: "CNCF", date: "2020-05-04T00:00:00Z" }],
    };
    const { resume, ignored, kept } = readResumeImport("jsonresume", structuredClone(document));
    expect(resume.experience).toMatchObject([
      { organization: "Pied Piper", start_date: "2019-03-01", end_date: null, date_precision: "month" },
      { organization: "Hooli", start_date: "2017-06-15", end_date: null },
    ]);
    expect(resume.certifications).toMatchObject([{ issue_date: "2020-05-04" }]);
    // `company` beside a `name` is a key of the item's own, kept as any other.
    expect(ignored).toEqual(["work[1].company"]);
    expect(kept?.items.experience[0]).toEqual(document.work[0]);
  });

  it("says a required field left out is required, at the document's own path (company where it stood for name)", () => {
    expect(importIssues("jsonresume", { work: [{ position: "CEO", startDate: "2019" }] })).toEqual([
      { path: "work[0].name", message: "is required" },
    ]);
    expect(
      importIssues("jsonresume", { work: [{ company: 7, position: "CEO", startDate: "2019" }] }),
    ).toEqual([{ path: "work[0].company", message: expect.stringMatching(/expected string/) }]);
    expect(importIssues("json", { skills: [{ category: "tool" }] })).toEqual([
      { path: "skills[0].name", message: "is required" },
    ]);
    // A field whose schema has words of its own (a date's format) says so too when left out.
    expect(importIssues("jsonresume", { work: [{ name: "Acme", position: "CEO" }] })).toEqual([
      { path: "work[0].startDate", message: "is required" },
    ]);
    expect(importIssues("json", { certifications: [{ name: "CKA", issuing_organization: "CNCF" }] })).toEqual(
      [{ path: "certifications[0].issue_date", message: "is required" }],
    );
  });
});

describe("the service's own JSON", () => {
  it("imports what GET /me/resume answers, server fields ignored but each entry's id told apart", () => {
    const resume = storedResume();
    expect(readResumeImport("json", JSON.parse(JSON.stringify(resume)))).toEqual({
      resume: fieldsOf(resume),
      ignored: [],
      ids: Object.fromEntries(
        COLLECTIONS.map((c) => [c.name, (resume[c.name] as { id: string }[]).map((entry) => entry.id)]),
      ),
    });
  });

  it("treats missing collections as empty and refuses unknown fields at their paths", () => {
    expect(readResumeImport("json", {}).resume).toEqual({
      profile: null,
      ...Object.fromEntries(COLLECTIONS.map((c) => [c.name, []])),
    });
    expect(
      importIssues("json", {
        extra: 1,
        experience: [{ ...MINIMAL.experience, colour: "red", start_date: "2020" }],
      }),
    ).toEqual([
      { path: "experience[0].start_date", message: "must be a real date, YYYY-MM-DD" },
      { path: "experience[0].colour", message: "unknown field" },
      { path: "extra", message: "unknown field" },
    ]);
  });
});

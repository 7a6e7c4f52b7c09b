/**
 * Import then export gives any JSON Resume document back, whatever it holds
 * beside the fields the service stores: generated documents, each imported
 * as PUT /me/resume?format=jsonresume reads it, stored as the database keeps
 * it (entries in the service's order, with ids; the kept parts through JSON,
 * as jsonb gives them back), and exported. The same path through the real
 * server and database is tested in apps/web/test/resume-import.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DomainError } from "@app/rest";
import { COLLECTIONS, type WholeResume } from "../src/index.ts";
import type { KeptJsonResume } from "../src/json-resume/kept-json-resume.ts";
import { toJsonResume } from "../src/json-resume/to-json-resume.ts";
import { readResumeImport } from "../src/read-resume-import.ts";

type Json = Record<string, unknown>;

/** Keys of the document's own, beside those JSON Resume defines. */
const extraKeys = fc.dictionary(
  fc.constantFrom("x-note", "x-id", "url", "description", "keywords", "courses", "roles", "entity", "type"),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 },
);
const date = fc.constantFrom("2019", "2019-06", "2019-06-15", "2020-02-29", "2021-12");
const laterDate = fc.constantFrom("2022", "2022-03", "2023-01-31");
const text = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== "");
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const withExtras = (item: fc.Arbitrary<Json>) =>
  fc.tuple(item, extraKeys).map(([fields, extra]) => dropUndefined({ ...extra, ...fields }));

const work = withExtras(
  fc.record({
    name: text,
    position: text,
    location: maybe(text),
    startDate: date,
    endDate: maybe(laterDate),
    summary: maybe(text),
    highlights: maybe(fc.array(text, { maxLength: 3 })),
  }),
);
const education = withExtras(
  fc.record({
    institution: text,
    studyType: text,
    area: maybe(text),
    startDate: date,
    endDate: maybe(laterDate),
    score: maybe(text),
  }),
);
const skill = withExtras(
  fc.record({
    name: text,
    level: maybe(fc.constantFrom("Master", "beginner", "Advanced", "fluent")),
    keywords: maybe(fc.array(text, { maxLength: 3 })),
  }),
);
const certificate = withExtras(
  fc.record({
    name: text,
    issuer: text,
    date,
    url: maybe(fc.constantFrom("https://cert.example/1", "http://x.example/")),
  }),
);
const interest = withExtras(fc.record({ name: text, keywords: maybe(fc.array(text, { maxLength: 2 })) }));
const basics = withExtras(
  fc.record({
    name: text,
    label: maybe(text),
    email: maybe(fc.constantFrom("ada@example.org", "b@example.com")),
    phone: maybe(text),
    image: maybe(fc.string()),
    location: maybe(
      fc.record(
        { address: text, city: text, region: text, postalCode: text, countryCode: text },
        { requiredKeys: [] },
      ),
    ),
    profiles: maybe(
      fc.uniqueArray(
        fc.record({
          network: fc.constantFrom("GitHub", "Twitter", "Mastodon"),
          username: maybe(text),
          url: fc.constantFrom("https://a.example/u", "https://b.example/", ""),
        }),
        { selector: (p) => p.network, maxLength: 3 },
      ),
    ),
  }),
);

const document = fc
  .record(
    {
      basics,
      work: fc.array(work, { maxLength: 4 }),
      education: fc.array(education, { maxLength: 2 }),
      skills: fc.array(skill, { maxLength: 4 }),
      certificates: fc.array(certificate, { maxLength: 2 }),
      interests: fc.array(interest, { maxLength: 2 }),
      volunteer: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 2 }),
      meta: fc.dictionary(fc.constantFrom("canonical", "version", "lastModified"), fc.string()),
      $schema: fc.constant("https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json"),
    },
    { requiredKeys: [] },
  )
  // As the document arrives over HTTP: JSON, nothing JSON cannot say (-0, undefined).
  .map((generated) => JSON.parse(JSON.stringify(generated)) as Json);

/** The resume and what was kept as the database gives them back after the import. */
function storedAfterImport(doc: Json, shuffle: (n: number) => number[]) {
  const { resume, kept } = readResumeImport("jsonresume", doc);
  const items: KeptJsonResume["items"] = {};
  const stored: Record<string, unknown> = { profile: resume.profile && { ...resume.profile } };
  for (const c of COLLECTIONS) {
    const entries = resume[c.name].map((entry, position) => {
      const id = `${c.name}-${position}`;
      items[id] = JSON.parse(JSON.stringify({ position, item: kept!.items[c.name][position] }));
      return { id, ...entry };
    });
    stored[c.name] = shuffle(entries.length).map((i) => entries[i]);
  }
  const keptDocument = JSON.parse(JSON.stringify(kept!.document)) as Json;
  return { resume: stored as unknown as WholeResume, kept: { document: keptDocument, items } };
}

function dropUndefined(object: Json): Json {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

describe("JSON Resume import then export", () => {
  it("gives back every document it imports, in any order the entries are stored in", () => {
    let imported = 0;
    fc.assert(
      fc.property(document, fc.infiniteStream(fc.nat()), (doc, randoms) => {
        const shuffle = (n: number) => {
          const order = [...Array(n).keys()];
          for (let i = n - 1; i > 0; i -= 1) {
            const j = randoms.next().value % (i + 1);
            [order[i], order[j]] = [order[j]!, order[i]!];
          }
          return order;
        };
        let stored;
        try {
          stored = storedAfterImport(doc, shuffle);
        } catch (error) {
          if (error instanceof DomainError && error.status === 400) return; // not importable: a 400
          throw error;
        }
        imported += 1;
        const exported = toJsonResume(stored.resume, stored.kept);
        expect(exported).toEqual(doc);
        // Each object's keys in the document's order, as the database keeps them (json, not jsonb).
        expect(JSON.stringify(exported)).toBe(JSON.stringify(doc));
      }),
      { numRuns: 300 },
    );
    // Most generated documents are importable, or this test would say little.
    expect(imported).toBeGreaterThan(150);
  });
});

/** A document whose link website is a profile's, with a basics.url beside it (which the import does not read). */
const WEBSITE_PROFILE_AND_URL = {
  basics: {
    name: "Ada",
    url: "https://ada.example",
    profiles: [
      { network: "website", url: "https://site.example" },
      { network: "GitHub", username: "ada", url: "https://github.com/ada" },
    ],
  },
};

describe("JSON Resume export after an edit", () => {
  const inOrder = (n: number) => [...Array(n).keys()];

  it("keeps basics.url when a profile, not it, was the link website", () => {
    const doc = structuredClone(WEBSITE_PROFILE_AND_URL);
    const stored = storedAfterImport(doc, inOrder);
    const profile = stored.resume.profile!;
    profile.links = { ...profile.links, mastodon: "https://mastodon.example/@ada" };
    expect(toJsonResume(stored.resume, stored.kept).basics).toEqual({
      ...doc.basics,
      profiles: [...doc.basics.profiles, { network: "mastodon", url: "https://mastodon.example/@ada" }],
    });
  });

  it("leaves basics.url out once the profile that was the link website is removed: read again, it would be that link", () => {
    const doc = structuredClone(WEBSITE_PROFILE_AND_URL);
    const stored = storedAfterImport(doc, inOrder);
    const { website, ...others } = stored.resume.profile!.links;
    expect(website).toBe("https://site.example");
    stored.resume.profile!.links = others;
    const exported = toJsonResume(stored.resume, stored.kept);
    expect(exported.basics).toEqual({ name: "Ada", profiles: [doc.basics.profiles[1]] });
    expect(readResumeImport("jsonresume", exported).resume.profile!.links).toEqual(
      stored.resume.profile!.links,
    );
  });

  it("leaves out a work item's summary, read as its one responsibility, once the responsibilities change", () => {
    const doc = {
      basics: { name: "Ada" },
      work: [{ name: "Acme", position: "Dev", startDate: "2020", summary: "Wrote the engine" }],
    };
    const stored = storedAfterImport(doc, inOrder);
    expect(stored.resume.experience[0]!.responsibilities).toEqual(["Wrote the engine"]);
    stored.resume.experience[0]!.responsibilities = ["Rewrote the engine", "Led the team"];
    expect(toJsonResume(stored.resume, stored.kept).work).toEqual([
      {
        name: "Acme",
        position: "Dev",
        startDate: "2020",
        "x-responsibilities": ["Rewrote the engine", "Led the team"],
      },
    ]);
  });

  it("gives back a section the document had as null, and an empty one, as they were", () => {
    const doc = { basics: { name: "Ada" }, work: null, education: [], meta: { "x-resume": { goals: null } } };
    const stored = storedAfterImport(doc, inOrder);
    expect(toJsonResume(stored.resume, stored.kept)).toEqual(doc);
  });

  it("writes a changed website link to basics.url where it came from", () => {
    const doc = { basics: { name: "Ada", url: "https://ada.example", "x-pronouns": "she/her" } };
    const stored = storedAfterImport(doc, inOrder);
    stored.resume.profile!.links = { website: "https://new.example" };
    expect(toJsonResume(stored.resume, stored.kept).basics).toEqual({
      ...doc.basics,
      url: "https://new.example",
    });
  });
});

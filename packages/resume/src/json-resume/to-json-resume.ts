import type { WholeResume } from "../schemas/whole-resume.ts";
import { restoreJsonResume, setAt, type KeptJsonResume } from "./kept-json-resume.ts";
import { jsonResumeValue, PROFILE_FIELDS, SECTIONS, type SectionMapping } from "./json-resume-mapping.ts";

export type JsonResume = Record<string, unknown>;

/**
 * The resume as a JSON Resume document (schema 1.0.0): every stored field,
 * nulls left out, dates in full. Importing it again gives the same resume.
 * With `kept` (what the person's last JSON Resume import held), the document
 * is written over the imported one, so that what the data model has no field
 * for comes back as it was (docs/resume-api.md, "JSON Resume export and import").
 */
export function toJsonResume(resume: WholeResume, kept?: KeptJsonResume): JsonResume {
  if (kept) return restoreJsonResume(resume, kept, freshItem, writeFreshProfile);
  const document: JsonResume = {};
  if (resume.profile) writeFreshProfile(document, resume.profile);
  for (const mapping of SECTIONS) {
    const entries = resume[mapping.collection] as Record<string, unknown>[];
    setAt(
      document,
      mapping.section,
      entries.map((entry) => freshItem(mapping, entry)),
    );
  }
  return document;
}

function writeFreshProfile(document: JsonResume, profile: NonNullable<WholeResume["profile"]>): void {
  for (const [field, path] of Object.entries(PROFILE_FIELDS)) {
    const value = profile[field as keyof typeof profile];
    if (field === "links") {
      const links = Object.entries(profile.links).map(([network, url]) => ({ network, url }));
      setAt(document, path, links);
    } else if (value !== null && value !== undefined) {
      setAt(document, path, value);
    }
  }
}

function freshItem({ fields }: SectionMapping, entry: Record<string, unknown>): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const [field, key] of Object.entries(fields))
    if (entry[field] !== null) item[key] = jsonResumeValue(entry, field);
  return item;
}

import type { WholeResume } from "../schemas/whole-resume.ts";
import { PROFILE_FIELDS, SECTIONS, type DocumentPath } from "./json-resume-mapping.ts";

export type JsonResume = Record<string, unknown>;

/**
 * The resume as a JSON Resume document (schema 1.0.0, whose top level allows
 * no other keys): every stored field, nulls left out, dates in full. Importing
 * it again gives the same resume (docs/resume-api.md,
 * "JSON Resume export and import").
 */
export function toJsonResume(resume: WholeResume): JsonResume {
  const document: JsonResume = {};
  const { profile } = resume;
  if (profile) {
    for (const [field, path] of Object.entries(PROFILE_FIELDS)) {
      const value = profile[field as keyof typeof profile];
      if (field === "links") {
        const links = Object.entries(profile.links).map(([network, url]) => ({ network, url }));
        setAt(document, path, links);
      } else if (value !== null) {
        setAt(document, path, value);
      }
    }
  }
  for (const { collection, section, fields } of SECTIONS) {
    const items = (resume[collection] as Record<string, unknown>[]).map((entry) => {
      const item: Record<string, unknown> = {};
      for (const [field, key] of Object.entries(fields)) if (entry[field] !== null) item[key] = entry[field];
      return item;
    });
    setAt(document, section, items);
  }
  return document;
}

function setAt(document: JsonResume, path: DocumentPath, value: unknown): void {
  let node = document as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
}

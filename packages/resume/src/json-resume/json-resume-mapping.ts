/**
 * Where each field of the service's resume lives in a JSON Resume document
 * (https://jsonresume.org/schema, 1.0.0). Export, import and the paths of
 * import errors all read these tables, so they cannot disagree. What JSON
 * Resume has no field for travels in `x-` properties of the item it belongs
 * to; goals belong to no JSON Resume section and live under `meta["x-resume"]`.
 */
import type { DocumentPath } from "@app/rest/paths";
import type { CollectionName } from "../collections.ts";

/** The link a person's `basics.url` becomes, unless a profile already has this network. */
export const WEBSITE = "website";

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The link name a `basics.profiles` item with a URL is read as: its network,
 * or, where it has none or a blank one (JSON Resume requires none), its
 * URL's host (`blog.example.org`). Undefined for a network that is not a
 * string, or no network and no URL to name it by.
 */
export function profileLinkName(profile: Record<string, unknown>): string | undefined {
  const { network, url } = profile;
  if (typeof network === "string" && network.trim() !== "") return network.trim();
  if (typeof network !== "string" && network !== undefined && network !== null) return undefined;
  try {
    return new URL(String(url)).hostname || undefined;
  } catch {
    return undefined;
  }
}

export interface SectionMapping {
  collection: CollectionName;
  /** Where the section's array lives in a JSON Resume document. */
  section: DocumentPath;
  /** Each field of an entry (API name) and the key it has in a JSON Resume item. */
  fields: Record<string, string>;
}

export const SECTIONS: readonly SectionMapping[] = [
  {
    collection: "experience",
    section: ["work"],
    fields: {
      organization: "name",
      title: "position",
      location: "location",
      employment_type: "x-employmentType",
      start_date: "startDate",
      end_date: "endDate",
      responsibilities: "x-responsibilities",
      accomplishments: "highlights",
    },
  },
  {
    collection: "education",
    section: ["education"],
    fields: {
      institution: "institution",
      degree: "studyType",
      field_of_study: "area",
      location: "x-location",
      start_date: "startDate",
      end_date: "endDate",
      gpa: "score",
      honors: "x-honors",
      activities: "x-activities",
    },
  },
  {
    collection: "skills",
    section: ["skills"],
    fields: {
      name: "name",
      category: "x-category",
      proficiency: "level",
      years_experience: "x-yearsExperience",
      keywords: "keywords",
    },
  },
  {
    collection: "certifications",
    section: ["certificates"],
    fields: {
      name: "name",
      issuing_organization: "issuer",
      issue_date: "date",
      expiration_date: "x-expirationDate",
      credential_id: "x-credentialId",
      credential_url: "url",
      type: "x-type",
    },
  },
  {
    collection: "hobbies",
    section: ["interests"],
    fields: { name: "name", description: "x-description" },
  },
  {
    collection: "goals",
    section: ["meta", "x-resume", "goals"],
    fields: { description: "description", category: "category", target_date: "targetDate", status: "status" },
  },
];

/** The service's date fields: each is a JSON Resume date there (`2014`, `2014-06` or `2014-06-29`). */
export const DATE_FIELDS: ReadonlySet<string> = new Set([
  "start_date",
  "end_date",
  "issue_date",
  "expiration_date",
  "target_date",
]);

/** An end date written as a word, as many tools write a current role's (`"Present"`): no end. */
export const isPresent = (value: unknown): boolean =>
  typeof value === "string" && value.trim().toLowerCase() === "present";

/** A full ISO timestamp, as tools that store a Date write one (`2019-03-01T00:00:00.000Z`). */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * `2014` and `2014-06` mean their first day, and a timestamp the day it
 * writes (not moved to another time zone's), trimmed as every date is;
 * anything else is left for validation to judge.
 */
export function fullDate(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const date = value.trim();
  if (/^\d{4}$/.test(date)) return `${date}-01-01`;
  if (/^\d{4}-\d{2}$/.test(date)) return `${date}-01`;
  const timestamp = TIMESTAMP.exec(date);
  if (timestamp) return timestamp[1];
  return value;
}

const absent = (value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && !value.trim()) || isPresent(value);

/** Whether an item gives dates, and every one as a year alone (`"2014"`): its entry reads them as years. */
export function datedInYears(item: Record<string, unknown>, { fields }: SectionMapping): boolean {
  const dates = Object.entries(fields)
    .filter(([field]) => DATE_FIELDS.has(field))
    .map(([, key]) => item[key])
    .filter((value) => !absent(value));
  return (
    dates.length > 0 && dates.every((value) => typeof value === "string" && /^\d{4}$/.test(value.trim()))
  );
}

/**
 * An entry's field as a JSON Resume item has it: a date of an entry that reads
 * as years is its year alone, as JSON Resume writes such a date (imported
 * again, it is that year's first day; the import finds the entry all the same:
 * matchedFields in store/replace-resume.ts compares entries as this writes them).
 */
export function jsonResumeValue(entry: Record<string, unknown>, field: string): unknown {
  const value = entry[field];
  return DATE_FIELDS.has(field) && entry.date_precision === "year" && typeof value === "string"
    ? value.slice(0, 4)
    : value;
}

/** The profile's fields and where they live; `links` become `basics.profiles` (network and url). */
export const PROFILE_FIELDS: Record<string, DocumentPath> = {
  name: ["basics", "name"],
  headline: ["basics", "label"],
  summary: ["basics", "summary"],
  email: ["basics", "email"],
  phone: ["basics", "phone"],
  location: ["basics", "location", "address"],
  city: ["basics", "location", "city"],
  region: ["basics", "location", "region"],
  postal_code: ["basics", "location", "postalCode"],
  country_code: ["basics", "location", "countryCode"],
  links: ["basics", "profiles"],
  goals_summary: ["meta", "x-resume", "goalsSummary"],
  language: ["meta", "x-resume", "language"],
};

/** The profile's fields JSON Resume has no place for, kept in `meta["x-resume"]`: only a profile keeps them. */
export const PROFILE_FIELDS_IN_META = Object.values(PROFILE_FIELDS).filter((path) => path[0] === "meta");

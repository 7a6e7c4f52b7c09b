import {
  CERTIFICATION_TYPES,
  DATE_PRECISIONS,
  DEFAULT_CERTIFICATION_TYPE,
  DEFAULT_DATE_PRECISION,
  DEFAULT_EMPLOYMENT_TYPE,
  DEFAULT_GOAL_STATUS,
  DEFAULT_PROFICIENCY,
  EMPLOYMENT_TYPES,
  GOAL_CATEGORIES,
  GOAL_STATUSES,
  PROFICIENCIES,
  SKILL_CATEGORIES,
  dateRange,
  enumLabel,
  renameFields,
  resumeDate,
  type CollectionName,
  type EntryOf,
} from "@app/resume/client";

export type FieldKind = "text" | "textarea" | "date" | "select" | "number" | "list" | "url";

export interface FieldSpec {
  name: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  options?: readonly string[];
  /**
   * What the server stores when the field is left out (the schema's
   * `.default`): a new entry's form starts with it, so that the form shows
   * what saving it untouched will store.
   */
  default?: string;
  /** For `date` end fields: a checkbox that stores null ("Current role"). */
  openEndedLabel?: string;
  /** For `select` fields: how an option reads, when its value's label (enumLabel) would not say it. */
  optionLabel?: (option: string) => string;
}

const DATES_SHOWN_AS: Record<string, string> = {
  month: "Month and year (Sep 2018)",
  year: "Year only (2018)",
};

/** The select of how an entry's dates read on the resume (`date_precision`). */
const datesShownAs: FieldSpec = {
  name: "date_precision",
  label: "Show dates as",
  kind: "select",
  options: DATE_PRECISIONS,
  default: DEFAULT_DATE_PRECISION,
  optionLabel: (option) => DATES_SHOWN_AS[option] ?? option,
};

export interface SectionSpec<Entry> {
  title: string;
  /** Singular noun for buttons: "Add experience". */
  noun: string;
  fields: FieldSpec[];
  /** One line that names an entry in the list. */
  summary(entry: Entry): { title: string; meta: string };
}

/** `message` with every field's API name (`start_date`) replaced by its label (`Start date`). */
export function withLabels(message: string, fields: readonly FieldSpec[]): string {
  return renameFields(
    message,
    fields.map((field) => [field.name, field.label] as const),
  );
}

export const SECTIONS: { [Name in CollectionName]: SectionSpec<EntryOf<Name>> } = {
  experience: {
    title: "Experience",
    noun: "experience",
    fields: [
      { name: "title", label: "Title", kind: "text", required: true },
      { name: "organization", label: "Organization", kind: "text", required: true },
      { name: "location", label: "Location", kind: "text" },
      {
        name: "employment_type",
        label: "Employment type",
        kind: "select",
        options: EMPLOYMENT_TYPES,
        default: DEFAULT_EMPLOYMENT_TYPE,
      },
      { name: "start_date", label: "Start date", kind: "date", required: true },
      { name: "end_date", label: "End date", kind: "date", openEndedLabel: "Current role" },
      datesShownAs,
      { name: "responsibilities", label: "Responsibilities", kind: "list" },
      { name: "accomplishments", label: "Accomplishments", kind: "list" },
    ],
    summary: (e) => ({
      title: `${e.title} — ${e.organization}`,
      meta: dateRange(e.start_date, e.end_date, e.date_precision),
    }),
  },
  education: {
    title: "Education",
    noun: "education",
    fields: [
      { name: "degree", label: "Degree", kind: "text", required: true },
      { name: "institution", label: "Institution", kind: "text", required: true },
      { name: "field_of_study", label: "Field of study", kind: "text" },
      { name: "location", label: "Location", kind: "text" },
      { name: "start_date", label: "Start date", kind: "date", required: true },
      { name: "end_date", label: "End date", kind: "date" },
      datesShownAs,
      { name: "gpa", label: "GPA", kind: "text" },
      { name: "honors", label: "Honors", kind: "textarea" },
      { name: "activities", label: "Activities", kind: "textarea" },
    ],
    summary: (e) => ({
      title: `${e.degree} — ${e.institution}`,
      meta: dateRange(e.start_date, e.end_date, e.date_precision),
    }),
  },
  skills: {
    title: "Skills",
    noun: "skill",
    fields: [
      { name: "name", label: "Skill", kind: "text", required: true },
      { name: "category", label: "Category", kind: "select", required: true, options: SKILL_CATEGORIES },
      {
        name: "proficiency",
        label: "Proficiency",
        kind: "select",
        options: PROFICIENCIES,
        default: DEFAULT_PROFICIENCY,
      },
      { name: "years_experience", label: "Years of experience", kind: "number" },
      { name: "keywords", label: "Keywords", kind: "list" },
    ],
    summary: (e) => ({ title: e.name, meta: `${enumLabel(e.category)} · ${enumLabel(e.proficiency)}` }),
  },
  certifications: {
    title: "Certifications",
    noun: "certification",
    fields: [
      { name: "name", label: "Certification", kind: "text", required: true },
      { name: "issuing_organization", label: "Issued by", kind: "text", required: true },
      { name: "issue_date", label: "Issue date", kind: "date", required: true },
      { name: "expiration_date", label: "Expiration date", kind: "date" },
      datesShownAs,
      { name: "credential_id", label: "Credential ID", kind: "text" },
      { name: "credential_url", label: "Credential URL", kind: "url" },
      {
        name: "type",
        label: "Type",
        kind: "select",
        options: CERTIFICATION_TYPES,
        default: DEFAULT_CERTIFICATION_TYPE,
      },
    ],
    summary: (e) => ({
      title: `${e.name} — ${e.issuing_organization}`,
      meta: e.expiration_date
        ? dateRange(e.issue_date, e.expiration_date, e.date_precision)
        : `issued ${resumeDate(e.issue_date, e.date_precision)}`,
    }),
  },
  hobbies: {
    title: "Hobbies",
    noun: "hobby",
    fields: [
      { name: "name", label: "Hobby", kind: "text", required: true },
      { name: "description", label: "Description", kind: "textarea" },
    ],
    summary: (e) => ({ title: e.name, meta: e.description ?? "" }),
  },
  goals: {
    title: "Goals",
    noun: "goal",
    fields: [
      { name: "description", label: "Goal", kind: "textarea", required: true },
      { name: "category", label: "Category", kind: "select", required: true, options: GOAL_CATEGORIES },
      { name: "target_date", label: "Target date", kind: "date" },
      datesShownAs,
      {
        name: "status",
        label: "Status",
        kind: "select",
        options: GOAL_STATUSES,
        default: DEFAULT_GOAL_STATUS,
      },
    ],
    summary: (e) => ({
      title: e.description,
      meta: [
        enumLabel(e.category),
        e.target_date && `by ${resumeDate(e.target_date, e.date_precision)}`,
        enumLabel(e.status),
      ]
        .filter(Boolean)
        .join(" · "),
    }),
  },
};

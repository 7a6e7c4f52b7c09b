import type { Collection, CollectionName } from "../collections.ts";

/** Newest first: start date, then the current role (no end) before ended ones, then latest created. */
const MOST_RECENT_FIRST = "t.start_date DESC, t.end_date DESC NULLS FIRST, t.created_at DESC, t.seq DESC";
const INSERTION_ORDER = "t.seq";

/** Where a collection lives: its table, its columns (API field = column) with the SQL type each parameter is cast to, its order. */
export interface CollectionTable {
  table: string;
  columns: Record<string, string>;
  orderBy: string;
  /**
   * The columns that make an entry the same one when an import edits its
   * other fields (a date by its year): what a person would not change
   * without meaning another job, school, skill, certificate, hobby or goal.
   */
  identity: string[];
}

const COLLECTION_TABLES: Record<CollectionName, CollectionTable> = {
  experience: {
    table: "resume.experiences",
    columns: {
      organization: "text",
      title: "text",
      location: "text",
      employment_type: "resume.employment_type",
      start_date: "date",
      end_date: "date",
      date_precision: "resume.date_precision",
      responsibilities: "text[]",
      accomplishments: "text[]",
    },
    orderBy: MOST_RECENT_FIRST,
    identity: ["organization", "start_date"],
  },
  education: {
    table: "resume.educations",
    columns: {
      institution: "text",
      degree: "text",
      field_of_study: "text",
      location: "text",
      start_date: "date",
      end_date: "date",
      date_precision: "resume.date_precision",
      gpa: "text",
      honors: "text",
      activities: "text",
    },
    orderBy: MOST_RECENT_FIRST,
    identity: ["institution", "start_date"],
  },
  skills: {
    table: "resume.skills",
    columns: {
      name: "text",
      category: "resume.skill_category",
      proficiency: "resume.proficiency",
      years_experience: "float8",
      keywords: "text[]",
    },
    orderBy: INSERTION_ORDER,
    identity: ["name"],
  },
  certifications: {
    table: "resume.certifications",
    columns: {
      name: "text",
      issuing_organization: "text",
      issue_date: "date",
      expiration_date: "date",
      date_precision: "resume.date_precision",
      credential_id: "text",
      credential_url: "text",
      type: "resume.certification_type",
    },
    orderBy: INSERTION_ORDER,
    identity: ["name", "issuing_organization"],
  },
  hobbies: {
    table: "resume.hobbies",
    columns: { name: "text", description: "text" },
    orderBy: INSERTION_ORDER,
    identity: ["name"],
  },
  goals: {
    table: "resume.goals",
    columns: {
      description: "text",
      category: "resume.goal_category",
      target_date: "date",
      date_precision: "resume.date_precision",
      status: "resume.goal_status",
    },
    orderBy: INSERTION_ORDER,
    identity: ["description"],
  },
};

/** Whether the list shows the latest entries first (on equal dates, the last written first). */
export const listedNewestFirst = (table: CollectionTable): boolean => table.orderBy === MOST_RECENT_FIRST;

export const tableOf = (collection: Collection): CollectionTable =>
  COLLECTION_TABLES[collection.name as CollectionName];

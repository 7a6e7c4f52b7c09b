import type { CollectionName } from "@app/resume";

/** A valid create body per collection, with only the required fields. */
export const MINIMAL: Record<CollectionName, Record<string, unknown>> = {
  experience: { organization: "Acme", title: "Engineer", start_date: "2020-01-15" },
  education: { institution: "TU Berlin", degree: "BSc", start_date: "2010-10-01" },
  skills: { name: "TypeScript", category: "language" },
  certifications: { name: "CKA", issuing_organization: "CNCF", issue_date: "2022-03-01" },
  hobbies: { name: "Climbing" },
  goals: { description: "Learn Rust", category: "learning" },
};

/** A valid body with every field set. */
export const COMPLETE: Record<CollectionName, Record<string, unknown>> = {
  experience: {
    organization: "Acme",
    title: "Senior Engineer",
    location: "Berlin",
    employment_type: "contract",
    start_date: "2019-04-01",
    end_date: "2021-06-30",
    responsibilities: ["Build the billing system", "Mentor two engineers"],
    accomplishments: ["Cut invoice time by 80%"],
  },
  education: {
    institution: "TU Berlin",
    degree: "MSc",
    field_of_study: "Computer Science",
    location: "Berlin",
    start_date: "2012-10-01",
    end_date: "2014-09-30",
    gpa: "1.3",
    honors: "With distinction",
    activities: "Robotics club",
  },
  skills: {
    name: "Go",
    category: "language",
    proficiency: "advanced",
    years_experience: 4.5,
    keywords: ["goroutines", "gRPC"],
  },
  certifications: {
    name: "AWS Solutions Architect",
    issuing_organization: "Amazon",
    issue_date: "2021-03-01",
    expiration_date: "2024-03-01",
    credential_id: "ABC-123",
    credential_url: "https://aws.example/verify/ABC-123",
    type: "personal",
  },
  hobbies: { name: "Chess", description: "Club games on Sundays" },
  goals: { description: "Run a marathon", category: "personal", target_date: "2027-10-01", status: "active" },
};

export const REQUIRED: Record<CollectionName, string[]> = {
  experience: ["organization", "title", "start_date"],
  education: ["institution", "degree", "start_date"],
  skills: ["name", "category"],
  certifications: ["name", "issuing_organization", "issue_date"],
  hobbies: ["name"],
  goals: ["description", "category"],
};

/** Defaults of optional enums when omitted. */
export const DEFAULTS: Partial<Record<CollectionName, Record<string, string>>> = {
  experience: { employment_type: "full-time" },
  skills: { proficiency: "intermediate" },
  certifications: { type: "professional" },
  goals: { status: "active" },
};

/** Date fields and, where there is one, the start/end pair. */
export const DATES: Partial<Record<CollectionName, { fields: string[]; range?: [string, string] }>> = {
  experience: { fields: ["start_date", "end_date"], range: ["start_date", "end_date"] },
  education: { fields: ["start_date", "end_date"], range: ["start_date", "end_date"] },
  certifications: { fields: ["issue_date", "expiration_date"], range: ["issue_date", "expiration_date"] },
  goals: { fields: ["target_date"] },
};

/** The singular upper-case word of `sk`. */
export const SK_PREFIX: Record<CollectionName, string> = {
  experience: "EXPERIENCE",
  education: "EDUCATION",
  skills: "SKILL",
  certifications: "CERTIFICATION",
  hobbies: "HOBBY",
  goals: "GOAL",
};

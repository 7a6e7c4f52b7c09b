import { z } from "zod";
import { certificationOutput, certificationRefine, certificationShape } from "./schemas/certification.ts";
import { educationOutput, educationRefine, educationShape } from "./schemas/education.ts";
import { experienceOutput, experienceRefine, experienceShape } from "./schemas/experience.ts";
import { bodyIgnoringServerFields, serverFieldsOutput } from "./schemas/fields.ts";
import { GOAL_MOVES, goalOutput, goalShape } from "./schemas/goal.ts";
import { hobbyOutput, hobbyShape } from "./schemas/hobby.ts";
import { skillOutput, skillShape } from "./schemas/skill.ts";

type Refinement = (value: never, ctx: z.RefinementCtx) => void;

/** Newest first: start date, then the current role (no end) before ended ones, then latest created. */
const MOST_RECENT_FIRST = "t.start_date DESC, t.end_date DESC NULLS FIRST, t.created_at DESC, t.seq DESC";
const INSERTION_ORDER = "t.seq";

/**
 * One of the six collections: its REST path, table, columns (API field = column,
 * with the SQL type its parameter is cast to), order, and schemas.
 */
export interface Collection<Name extends string = string> {
  name: Name;
  /** Singular, for summaries and `entity_type`. */
  entityType: string;
  path: `/me/${string}`;
  table: string;
  columns: Record<string, string>;
  orderBy: string;
  /** The entry's fields, as the UI's forms validate them. */
  fields: z.ZodObject;
  /** Create body: the fields; server fields sent back are ignored, other unknown keys rejected. */
  createInput: z.ZodType;
  /** Replace input: the path's `id` and every field, as for create. */
  replaceInput: z.ZodType;
  output: z.ZodObject;
  /** A field whose changes on replace are restricted to the listed moves. */
  transition?: { column: string; sqlType: string; moves: Record<string, readonly string[]> };
}

function collection<Name extends string>(
  definition: Omit<Collection<Name>, "output" | "fields" | "createInput" | "replaceInput"> & {
    shape: z.ZodRawShape;
    refine?: Refinement;
    outputShape: z.ZodRawShape;
    schemaName: string;
  },
): Collection<Name> {
  const { shape, refine, outputShape, schemaName, ...rest } = definition;
  const withRefinement = <T extends z.ZodObject>(schema: T) =>
    refine ? (schema.superRefine(refine as (value: unknown, ctx: z.RefinementCtx) => void) as T) : schema;
  const fields = withRefinement(z.strictObject(shape));
  return {
    ...rest,
    fields,
    createInput: bodyIgnoringServerFields(fields).meta({ title: `${schemaName}Input` }),
    replaceInput: bodyIgnoringServerFields(
      withRefinement(z.strictObject({ id: z.uuid("must be a uuid"), ...shape })),
      ["id"],
    ),
    output: z.object({ id: z.uuid(), ...outputShape, ...serverFieldsOutput }).meta({ id: schemaName }),
  };
}

export const COLLECTIONS = [
  collection({
    name: "experience",
    entityType: "experience",
    schemaName: "Experience",
    path: "/me/experience",
    table: "resume.experiences",
    columns: {
      organization: "text",
      title: "text",
      location: "text",
      employment_type: "resume.employment_type",
      start_date: "date",
      end_date: "date",
      responsibilities: "text[]",
      accomplishments: "text[]",
    },
    orderBy: MOST_RECENT_FIRST,
    shape: experienceShape,
    refine: experienceRefine,
    outputShape: experienceOutput,
  }),
  collection({
    name: "education",
    entityType: "education",
    schemaName: "Education",
    path: "/me/education",
    table: "resume.educations",
    columns: {
      institution: "text",
      degree: "text",
      field_of_study: "text",
      location: "text",
      start_date: "date",
      end_date: "date",
      gpa: "text",
      honors: "text",
      activities: "text",
    },
    orderBy: MOST_RECENT_FIRST,
    shape: educationShape,
    refine: educationRefine,
    outputShape: educationOutput,
  }),
  collection({
    name: "skills",
    entityType: "skill",
    schemaName: "Skill",
    path: "/me/skills",
    table: "resume.skills",
    columns: {
      name: "text",
      category: "resume.skill_category",
      proficiency: "resume.proficiency",
      years_experience: "float8",
    },
    orderBy: INSERTION_ORDER,
    shape: skillShape,
    outputShape: skillOutput,
  }),
  collection({
    name: "certifications",
    entityType: "certification",
    schemaName: "Certification",
    path: "/me/certifications",
    table: "resume.certifications",
    columns: {
      name: "text",
      issuing_organization: "text",
      issue_date: "date",
      expiration_date: "date",
      credential_id: "text",
      credential_url: "text",
      type: "resume.certification_type",
    },
    orderBy: INSERTION_ORDER,
    shape: certificationShape,
    refine: certificationRefine,
    outputShape: certificationOutput,
  }),
  collection({
    name: "hobbies",
    entityType: "hobby",
    schemaName: "Hobby",
    path: "/me/hobbies",
    table: "resume.hobbies",
    columns: { name: "text", description: "text" },
    orderBy: INSERTION_ORDER,
    shape: hobbyShape,
    outputShape: hobbyOutput,
  }),
  collection({
    name: "goals",
    entityType: "goal",
    schemaName: "Goal",
    path: "/me/goals",
    table: "resume.goals",
    columns: {
      description: "text",
      category: "resume.goal_category",
      target_date: "date",
      status: "resume.goal_status",
    },
    orderBy: INSERTION_ORDER,
    shape: goalShape,
    outputShape: goalOutput,
    transition: { column: "status", sqlType: "resume.goal_status", moves: GOAL_MOVES },
  }),
] as const;

export type CollectionName = (typeof COLLECTIONS)[number]["name"];

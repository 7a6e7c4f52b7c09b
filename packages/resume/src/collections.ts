import { z } from "zod";
import { certificationOutput, certificationRefine, certificationShape } from "./schemas/certification.ts";
import { educationOutput, educationRefine, educationShape } from "./schemas/education.ts";
import { experienceOutput, experienceRefine, experienceShape } from "./schemas/experience.ts";
import { bodyIgnoringServerFields, serverFieldsOutput } from "./schemas/fields.ts";
import { GOAL_MOVES, goalOutput, goalShape } from "./schemas/goal.ts";
import { hobbyOutput, hobbyShape } from "./schemas/hobby.ts";
import { skillOutput, skillShape } from "./schemas/skill.ts";

type Refinement = (value: never, ctx: z.RefinementCtx) => void;

interface CollectionDefinition<
  Name extends string,
  Shape extends z.ZodRawShape,
  Output extends z.ZodRawShape,
> {
  name: Name;
  /** Singular, for summaries and `entity_type`. */
  entityType: string;
  path: `/me/${string}`;
  /** The entry's fields. */
  shape: Shape;
  /** Checks across fields (an end not before its start). */
  refine?: Refinement;
  /** The fields of an entry as answered, besides `id` and the server fields. */
  outputShape: Output;
  schemaName: string;
  /** A field whose changes on replace are restricted to the listed moves. */
  transition?: { column: string; moves: Record<string, readonly string[]> };
}

/**
 * One of the six collections as the API and the editor see it: its REST path
 * and schemas, each typed with the collection's own fields. (Its table and
 * columns are the store's business: store/collection-tables.ts.)
 */
function collection<Name extends string, Shape extends z.ZodRawShape, Output extends z.ZodRawShape>(
  definition: CollectionDefinition<Name, Shape, Output>,
) {
  const { shape, refine, outputShape, schemaName, ...rest } = definition;
  const withRefinement = <T extends z.ZodObject>(schema: T) =>
    refine ? (schema.superRefine(refine as (value: unknown, ctx: z.RefinementCtx) => void) as T) : schema;
  const fields = withRefinement(z.strictObject(shape));
  return {
    ...rest,
    /** The entry's fields, as the UI's forms validate them. */
    fields,
    /** Create body: the fields; server fields sent back are ignored, other unknown keys rejected. */
    createInput: bodyIgnoringServerFields(fields, [], `${schemaName}Input`),
    /** Replace input: the path's `id` and every field, as for create. */
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
    shape: experienceShape,
    refine: experienceRefine,
    outputShape: experienceOutput,
  }),
  collection({
    name: "education",
    entityType: "education",
    schemaName: "Education",
    path: "/me/education",
    shape: educationShape,
    refine: educationRefine,
    outputShape: educationOutput,
  }),
  collection({
    name: "skills",
    entityType: "skill",
    schemaName: "Skill",
    path: "/me/skills",
    shape: skillShape,
    outputShape: skillOutput,
  }),
  collection({
    name: "certifications",
    entityType: "certification",
    schemaName: "Certification",
    path: "/me/certifications",
    shape: certificationShape,
    refine: certificationRefine,
    outputShape: certificationOutput,
  }),
  collection({
    name: "hobbies",
    entityType: "hobby",
    schemaName: "Hobby",
    path: "/me/hobbies",
    shape: hobbyShape,
    outputShape: hobbyOutput,
  }),
  collection({
    name: "goals",
    entityType: "goal",
    schemaName: "Goal",
    path: "/me/goals",
    shape: goalShape,
    outputShape: goalOutput,
    transition: { column: "status", moves: GOAL_MOVES },
  }),
] as const;

export type Collection = (typeof COLLECTIONS)[number];
export type CollectionName = Collection["name"];
/** An entry of collection `Name` as the API answers it. */
export type EntryOf<Name extends CollectionName> = z.output<Extract<Collection, { name: Name }>["output"]>;

import { z } from "zod";
import { COLLECTIONS, type CollectionName } from "../collections.ts";
import { profileInput, type ProfileInput } from "./profile.ts";

const [experience, education, skills, certifications, hobbies, goals] = COLLECTIONS;

const entries = <T extends z.ZodType>(schema: T) =>
  z
    .array(schema)
    .optional()
    .transform((items) => items ?? []);

/**
 * A whole resume to import, as GET /me/resume answers it: server fields are
 * ignored (as in every body), a missing collection is an empty one, a missing
 * or null profile means none. Every rule of the single routes applies.
 */
export const resumeImportFields = z.strictObject({
  profile: profileInput.nullish().transform((profile) => profile ?? null),
  experience: entries(experience.createInput),
  education: entries(education.createInput),
  skills: entries(skills.createInput),
  certifications: entries(certifications.createInput),
  hobbies: entries(hobbies.createInput),
  goals: entries(goals.createInput),
});

export type ResumeImport = { profile: ProfileInput | null } & Record<
  CollectionName,
  Record<string, unknown>[]
>;

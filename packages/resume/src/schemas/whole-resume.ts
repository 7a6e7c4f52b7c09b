import { z } from "zod";
import { COLLECTIONS } from "../collections.ts";
import { profileOutput } from "./profile.ts";

const [experience, education, skills, certifications, hobbies, goals] = COLLECTIONS;

/** GET /me/resume as JSON: everything the caller stored. */
export const wholeResumeOutput = z
  .object({
    profile: profileOutput.nullable(),
    experience: z.array(experience.output),
    education: z.array(education.output),
    skills: z.array(skills.output),
    certifications: z.array(certifications.output),
    hobbies: z.array(hobbies.output),
    goals: z.array(goals.output),
  })
  .meta({ id: "Resume", description: "Everything the caller stored; profile is null until the first PUT." });

export type WholeResume = z.output<typeof wholeResumeOutput>;

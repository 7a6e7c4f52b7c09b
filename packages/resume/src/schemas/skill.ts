import { z } from "zod";
import { requiredString } from "./fields.ts";

export const SKILL_CATEGORIES = ["language", "framework", "tool", "soft-skill"] as const;
export const PROFICIENCIES = ["beginner", "intermediate", "advanced", "expert"] as const;

export const skillShape = {
  name: requiredString(),
  category: z.enum(SKILL_CATEGORIES),
  proficiency: z.enum(PROFICIENCIES).default("intermediate"),
  // A union, not .nullable(): trpc-to-openapi coerces plain numbers of REST
  // input (Number(true) === 1), and a wrong type must stay a 400.
  years_experience: z
    .union([z.number().min(0, "must be at least 0").max(100, "must be at most 100"), z.null()], {
      error: "must be a number from 0 to 100, or null",
    })
    .optional()
    .transform((v) => v ?? null),
};

export const skillOutput = {
  name: z.string(),
  category: z.enum(SKILL_CATEGORIES),
  proficiency: z.enum(PROFICIENCIES),
  years_experience: z.number().nullable(),
};

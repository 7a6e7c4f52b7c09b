import { z } from "zod";
import { requiredString, textList } from "./fields.ts";

export const SKILL_CATEGORIES = ["language", "framework", "tool", "soft-skill"] as const;
export const PROFICIENCIES = ["beginner", "intermediate", "advanced", "expert"] as const;

/** What a new skill without a proficiency gets: the editor shows it selected. */
export const DEFAULT_PROFICIENCY = "intermediate" satisfies (typeof PROFICIENCIES)[number];

export const skillShape = {
  name: requiredString(),
  category: z.enum(SKILL_CATEGORIES),
  proficiency: z.enum(PROFICIENCIES).default(DEFAULT_PROFICIENCY),
  years_experience: z
    .number("must be a number from 0 to 100, or null")
    .min(0, "must be at least 0")
    .max(100, "must be at most 100")
    .nullish()
    .transform((v) => v ?? null),
  keywords: textList().meta({
    description: "What the skill covers, e.g. HTML, CSS (JSON Resume's keywords).",
  }),
};

export const skillOutput = {
  name: z.string(),
  category: z.enum(SKILL_CATEGORIES),
  proficiency: z.enum(PROFICIENCIES),
  years_experience: z.number().nullable(),
  keywords: z.array(z.string()),
};

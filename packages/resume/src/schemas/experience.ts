import { z } from "zod";
import {
  datePrecision,
  datePrecisionOutput,
  endNotBeforeStart,
  optionalDate,
  optionalString,
  requiredDate,
  requiredString,
  textList,
} from "./fields.ts";

export const EMPLOYMENT_TYPES = [
  "full-time",
  "part-time",
  "contract",
  "internship",
  "self-employed",
] as const;

/** What a new entry without an employment type gets: the editor shows it selected. */
export const DEFAULT_EMPLOYMENT_TYPE = "full-time" satisfies (typeof EMPLOYMENT_TYPES)[number];

export const experienceShape = {
  organization: requiredString(),
  title: requiredString(),
  location: optionalString(),
  employment_type: z.enum(EMPLOYMENT_TYPES).default(DEFAULT_EMPLOYMENT_TYPE),
  start_date: requiredDate(),
  end_date: optionalDate().meta({ description: "Omitted or null: the current role." }),
  date_precision: datePrecision(),
  responsibilities: textList(),
  accomplishments: textList(),
};

export const experienceRefine = endNotBeforeStart("start_date", "end_date");

export const experienceOutput = {
  organization: z.string(),
  title: z.string(),
  location: z.string().nullable(),
  employment_type: z.enum(EMPLOYMENT_TYPES),
  start_date: z.iso.date(),
  end_date: z.iso.date().nullable(),
  date_precision: datePrecisionOutput(),
  responsibilities: z.array(z.string()),
  accomplishments: z.array(z.string()),
};

import { z } from "zod";
import { LIMITS } from "../limits.ts";
import {
  datePrecision,
  datePrecisionOutput,
  endNotBeforeStart,
  optionalDate,
  optionalString,
  requiredDate,
  requiredString,
} from "./fields.ts";

export const educationShape = {
  institution: requiredString(),
  degree: requiredString(),
  field_of_study: optionalString(),
  location: optionalString(),
  start_date: requiredDate(),
  end_date: optionalDate(),
  date_precision: datePrecision(),
  gpa: optionalString(),
  honors: optionalString(LIMITS.textLength),
  activities: optionalString(LIMITS.textLength),
};

export const educationRefine = endNotBeforeStart("start_date", "end_date");

export const educationOutput = {
  institution: z.string(),
  degree: z.string(),
  field_of_study: z.string().nullable(),
  location: z.string().nullable(),
  start_date: z.iso.date(),
  end_date: z.iso.date().nullable(),
  date_precision: datePrecisionOutput(),
  gpa: z.string().nullable(),
  honors: z.string().nullable(),
  activities: z.string().nullable(),
};

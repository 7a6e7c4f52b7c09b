import { z } from "zod";
import {
  datePrecision,
  datePrecisionOutput,
  endNotBeforeStart,
  optionalDate,
  requiredDate,
  optionalHttpUrl,
  optionalString,
  requiredString,
} from "./fields.ts";

export const CERTIFICATION_TYPES = ["professional", "personal"] as const;

/** What a new certification without a type gets: the editor shows it selected. */
export const DEFAULT_CERTIFICATION_TYPE = "professional" satisfies (typeof CERTIFICATION_TYPES)[number];

export const certificationShape = {
  name: requiredString(),
  issuing_organization: requiredString(),
  issue_date: requiredDate(),
  expiration_date: optionalDate(),
  date_precision: datePrecision(),
  credential_id: optionalString(),
  credential_url: optionalHttpUrl(),
  type: z.enum(CERTIFICATION_TYPES).default(DEFAULT_CERTIFICATION_TYPE),
};

export const certificationRefine = endNotBeforeStart("issue_date", "expiration_date");

export const certificationOutput = {
  name: z.string(),
  issuing_organization: z.string(),
  issue_date: z.iso.date(),
  expiration_date: z.iso.date().nullable(),
  date_precision: datePrecisionOutput(),
  credential_id: z.string().nullable(),
  credential_url: z.string().meta({ format: "uri" }).nullable(),
  type: z.enum(CERTIFICATION_TYPES),
};

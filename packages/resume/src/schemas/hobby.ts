import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { optionalString, requiredString } from "./fields.ts";

export const hobbyShape = {
  name: requiredString(),
  description: optionalString(LIMITS.textLength),
};

export const hobbyOutput = {
  name: z.string(),
  description: z.string().nullable(),
};

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

type Callback = (errors: unknown, result: unknown) => void;
interface Validator {
  validate(document: unknown, callback: Callback): void;
  schema: object;
}

/** resume-schema@1.0.0: the schema as published, whose top level allows no other keys (z-schema, draft-04). */
const published = require("resume-schema") as Validator;
/** @jsonresume/schema: the current package (jsonschema, draft-07). */
const current = require("@jsonresume/schema") as Validator;

/** Each package's validation errors for `document`; both empty when it is valid. */
export async function jsonResumeErrors(document: unknown): Promise<{ published: unknown; current: unknown }> {
  const run = (validator: Validator) =>
    new Promise<unknown>((resolve) => validator.validate(document, (errors) => resolve(errors ?? null)));
  return { published: await run(published), current: await run(current) };
}

/** The sample resumes the two packages ship. */
export const SAMPLE_RESUMES = {
  published: require("resume-schema/sample.resume.json") as Record<string, unknown>,
  current: require("@jsonresume/schema/sample.resume.json") as Record<string, unknown>,
};

import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { canonicalLanguageTag, LANGUAGE_TAG_LENGTH } from "../resume-language.ts";
import { recordWithoutProtoKey, text } from "@app/rest/fields";
import {
  bodyIgnoringServerFields,
  httpUrl,
  optionalEmail,
  optionalString,
  requiredString,
  serverFieldsOutput,
} from "./fields.ts";

const linkName = text()
  .trim()
  .min(1, "link names must not be empty")
  .max(50, "link names have at most 50 characters");

/**
 * Refuses two link names that are one once trimmed (`gh` and `gh `) at the
 * second: trimmed into one key, either link would silently replace the other.
 */
function linkNamesOnceEach<T extends z.ZodType>(links: T) {
  return z.preprocess((value, ctx) => {
    if (typeof value !== "object" || value === null) return value;
    const seen = new Set<string>();
    for (const name of Object.keys(value)) {
      const trimmed = name.trim();
      if (seen.has(trimmed))
        ctx.addIssue({ code: "custom", path: [name], message: `"${trimmed}" appears twice` });
      seen.add(trimmed);
    }
    return value;
  }, links);
}

/** A BCP 47 language tag, stored in its canonical form; empty, null or omitted store null. */
const optionalLanguageTag = () =>
  optionalString(LANGUAGE_TAG_LENGTH).transform((tag, ctx) => {
    if (tag === null) return null;
    const canonical = canonicalLanguageTag(tag);
    if (canonical && canonical.length <= LANGUAGE_TAG_LENGTH) return canonical;
    ctx.addIssue({
      code: "custom",
      message: canonical
        ? `must be at most ${LANGUAGE_TAG_LENGTH} characters, written canonically as ${canonical}`
        : "must be a language tag (BCP 47), e.g. en, de, pt-BR or zh-Hant",
    });
    return z.NEVER;
  });

const LANGUAGE_DESCRIPTION =
  "The language the resume is written in, as a BCP 47 tag (`en`, `de`, `pt-BR`, `zh-Hant`; written back in its " +
  "canonical form): its themed pages, PDF and Word file say so. Null: the language its text's script tells " +
  "(Hebrew, Greek, Thai, Armenian, Georgian, Korean, Japanese, Chinese), else English.";

export const profileFields = z.strictObject({
  name: requiredString(),
  headline: optionalString(),
  summary: optionalString(LIMITS.textLength),
  location: optionalString().meta({
    description: "Where the person is, as one line (JSON Resume's basics.location.address).",
  }),
  city: optionalString(),
  region: optionalString(),
  postal_code: optionalString(),
  country_code: optionalString().meta({ description: "e.g. US, DE (ISO 3166-1 alpha-2 is usual)." }),
  email: optionalEmail(),
  phone: optionalString(),
  links: linkNamesOnceEach(
    recordWithoutProtoKey(
      z
        .record(linkName, httpUrl())
        .refine((links) => Object.keys(links).length <= LIMITS.links, `at most ${LIMITS.links} links`)
        .optional(),
      "__proto__ cannot be a link name",
    ),
  )
    .transform((v) => v ?? {})
    .meta({ description: "Named links, e.g. linkedin, github, site: absolute http(s) URLs." }),
  goals_summary: optionalString(LIMITS.textLength),
  language: optionalLanguageTag().meta({ description: LANGUAGE_DESCRIPTION }),
});

export const profileInput = bodyIgnoringServerFields(profileFields, [], "ProfileInput");

export const profileOutput = z
  .object({
    name: z.string(),
    headline: z.string().nullable(),
    summary: z.string().nullable(),
    location: z.string().nullable(),
    city: z.string().nullable(),
    region: z.string().nullable(),
    postal_code: z.string().nullable(),
    country_code: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    links: z.record(z.string(), z.string().meta({ format: "uri" })),
    goals_summary: z.string().nullable(),
    language: z.string().nullable().meta({ description: LANGUAGE_DESCRIPTION }),
    ...serverFieldsOutput,
  })
  .meta({ id: "Profile" });

export type ProfileInput = z.output<typeof profileFields>;
export type Profile = z.output<typeof profileOutput>;

/** The resume service's limits (docs/resume-api.md, "Rules"). */
export const LIMITS = {
  /** Names, titles and other one-line fields. */
  nameLength: 200,
  /** Free text: summary, descriptions. */
  textLength: 5_000,
  /** One responsibility or accomplishment. */
  listItemLength: 1_000,
  /** Items in one list. */
  listItems: 50,
  links: 20,
  urlLength: 2_000,
  /** Entries per collection and person; the next create answers 409. */
  entriesPerCollection: 200,
  bodyBytes: 64 * 1024,
  /** PUT /me/resume: a whole resume to import. */
  importBodyBytes: 1024 * 1024,
} as const;

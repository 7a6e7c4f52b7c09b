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
  /**
   * The text a PDF, Word or text document holds (about 400 pages), in characters (code points): a PDF is
   * made at about 1 MB of text a second, and the collections' limits would allow some 25 MB.
   */
  documentTextLength: 1_000_000,
  /**
   * A resume with at most this much text (characters) has its Markdown and themed page made on the
   * request's thread (a themed page takes some 50 ms, whatever its length up to here); a longer one
   * on a document worker, as its files are (a 10 MB resume's page took 3 s): docs/benchmarks.md.
   */
  pageTextOnRequestThread: 50_000,
  /** PUT /me/resume: a whole resume to import. */
  importBodyBytes: 1024 * 1024,
} as const;

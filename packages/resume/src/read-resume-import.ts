import { apiIssuesOf, invalidRequestError, type ApiIssue, type DescribeIssue } from "@app/rest";
import { formatDocumentPath } from "@app/rest/paths";
import { COLLECTIONS, type CollectionName } from "./collections.ts";
import { fromJsonResume } from "./json-resume/from-json-resume.ts";
import { splitForKeeping } from "./json-resume/kept-json-resume.ts";
import { unkeepableValues } from "./json-resume/unkeepable-values.ts";
import { LIMITS } from "./limits.ts";
import { resumeImportFields, type ResumeImport } from "./schemas/resume-import.ts";

export interface ResumeToImport {
  resume: ResumeImport;
  /** Paths of what the data model has no field for (kept, with a JSON Resume document). */
  ignored: string[];
  kept?: ReturnType<typeof splitForKeeping>;
  /**
   * The service's own JSON: the `id` each entry carries (lowercased), else
   * null, in the file's order; the entry of the person's that it names keeps
   * that id (store/replace-resume.ts). Validation drops it with the other
   * server fields.
   */
  ids?: Record<CollectionName, (string | null)[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Each collection's entries' `id`s, lowercased; an id that is not a uuid is none. */
function idsOf(document: Record<string, unknown>): Record<CollectionName, (string | null)[]> {
  const ids = {} as Record<CollectionName, (string | null)[]>;
  for (const { name } of COLLECTIONS) {
    const entries = document[name];
    ids[name] = (Array.isArray(entries) ? entries : []).map((entry: unknown) => {
      const id = (entry as { id?: unknown } | null)?.id;
      return typeof id === "string" && UUID.test(id) ? id.toLowerCase() : null;
    });
  }
  return ids;
}

export const IMPORT_FORMATS = ["json", "jsonresume"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * An import document checked by every rule of the single routes, in the
 * service's vocabulary; or a 400 whose issues name paths in the document's own
 * (`work[3].startDate` for JSON Resume, `experience[3].start_date` for the
 * service's JSON), nothing written. A JSON Resume document also gives what is
 * to be kept of it verbatim (`kept`: json-resume/kept-json-resume.ts).
 */
export function readResumeImport(format: ImportFormat, document: unknown): ResumeToImport {
  if (format === "jsonresume") {
    const unkeepable = unkeepableValues(document);
    if (unkeepable.length > 0) throw invalidRequestError(unkeepable);
  }
  const converted = format === "jsonresume" ? fromJsonResume(document) : undefined;
  const candidate = converted ? converted.resume : document;
  const describe: DescribeIssue = (path, message, code) =>
    converted?.describeIssue(path, message, code) ?? {
      path: formatDocumentPath(path as (string | number)[]),
      message,
    };

  const issues: ApiIssue[] = [...(converted?.issues ?? [])];
  // Checked before the entries, so that 10,000 of them cost one issue, not 10,000 validations.
  for (const { name } of COLLECTIONS) {
    const entries = (candidate as Record<string, unknown> | null)?.[name];
    if (Array.isArray(entries) && entries.length > LIMITS.entriesPerCollection) {
      const message = `at most ${LIMITS.entriesPerCollection} ${name} entries`;
      issues.push(describe([name, LIMITS.entriesPerCollection], message));
    }
  }
  if (issues.length === 0) {
    const parsed = resumeImportFields.safeParse(candidate);
    if (parsed.success) {
      const resume = parsed.data as ResumeImport;
      if (!converted) return { resume, ignored: [], ids: idsOf(candidate as Record<string, unknown>) };
      return {
        resume,
        ignored: converted.ignored,
        kept: splitForKeeping(document as Record<string, unknown>),
      };
    }
    issues.push(...apiIssuesOf(parsed.error, describe, candidate));
  }
  throw invalidRequestError(issues);
}

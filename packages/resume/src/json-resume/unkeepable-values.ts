import type { ApiIssue } from "@app/rest";
import { namedFindings } from "@app/rest/json-text";
import { UNSTORABLE_TEXT } from "@app/rest/fields";
import { formatDocumentPath, type DocumentPath } from "@app/rest/paths";

/** How deep a value of a JSON Resume document may be (its schema's own fields are at most 4 deep; keys of its own may go further). */
export const KEPT_DEPTH = 64;

/**
 * What of a JSON Resume document could not be kept as it came
 * (kept-json-resume.ts), each at its path: a text or a key with NUL or a lone
 * surrogate, which PostgreSQL's JSON cannot hold, and a value nested deeper
 * than KEPT_DEPTH, which copying and storing it would recurse into. Walked
 * with a stack of its own, not by recursion: a 1 MiB body can nest 500,000 deep.
 */
export function unkeepableValues(document: unknown): ApiIssue[] {
  const found: { path: DocumentPath; message: string }[] = [];
  const stack: { value: unknown; path: DocumentPath }[] = [{ value: document, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (path.length > KEPT_DEPTH) {
      found.push({ path, message: `is nested deeper than ${KEPT_DEPTH} levels: keep it flatter` });
      continue;
    }
    if (typeof value === "string") {
      const problem = textProblem(value);
      if (problem) found.push({ path, message: problem });
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    const members: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (const [key] of members) {
      const problem = typeof key === "string" && textProblem(key);
      if (problem) found.push({ path: [...path, key], message: `its name ${problem}` });
    }
    // Pushed last to first, so that the values are walked in the document's order.
    for (const [key, child] of members.reverse()) stack.push({ value: child, path: [...path, key] });
  }
  return namedFindings(
    found,
    ({ path, message }) => ({ path: formatDocumentPath(path), message }),
    (others) => ({ path: "", message: `and ${others} more such values` }),
  );
}

/** Why PostgreSQL could not keep `text` as sent, as `text()` of @app/rest/fields says it; null if it can. */
function textProblem(text: string): string | null {
  return UNSTORABLE_TEXT.find(([unstorable]) => unstorable(text))?.[1] ?? null;
}

/** Where a value sits in a JSON document: its keys and list indexes, outermost first. */
export type DocumentPath = readonly (string | number)[];

/** `work[3].startDate`, `meta["x-resume"].goals[0]`: a path as a person reads it. */
export function formatDocumentPath(path: DocumentPath): string {
  return path
    .map((segment, i) => {
      if (typeof segment === "number") return `[${segment}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(segment)) return i === 0 ? segment : `.${segment}`;
      return `[${JSON.stringify(segment)}]`;
    })
    .join("");
}

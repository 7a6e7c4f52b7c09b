/**
 * `message` with each field name in it (`start_date`, as a whole word) told
 * by its other name: the document's (`startDate`) or the editor's label
 * (`Start date`), so that a message names fields as its reader knows them.
 */
export function renameFields(message: string, names: Iterable<readonly [string, string]>): string {
  let text = message;
  for (const [name, other] of names) text = text.replace(new RegExp(`\\b${name}\\b`, "g"), other);
  return text;
}

/** What a JSON text says that `JSON.parse` changes without a word, for the editor's file import too. */
export { namedFindings } from "./json-text-walk.ts";
export { repeatedMembers } from "./repeated-members.ts";
export { roundedNumbers } from "./rounded-numbers.ts";

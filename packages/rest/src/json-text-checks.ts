/** What a JSON text says that `JSON.parse` changes without a word, for the editor's file import too. */
export { FINDINGS_WITH_PATHS } from "./json-text-walk.ts";
export { repeatedMembers } from "./repeated-members.ts";
export { roundedNumbers } from "./rounded-numbers.ts";

/** What a JSON text says that `JSON.parse` changes without a word, for the editor's file import too. */
export { repeatedMembers } from "./repeated-members.ts";
export { roundedWholeNumbers } from "./rounded-numbers.ts";

/**
 * What the browser may import: the schemas and limits, no data access. The
 * editor validates with exactly the zod schemas the server uses.
 */
export { COLLECTIONS, type Collection, type CollectionName, type EntryOf } from "./collections.ts";
export { LIMITS } from "./limits.ts";
export { DEFAULT_GOAL_STATUS, GOAL_MOVES, GOAL_STATUSES, GOAL_CATEGORIES } from "./schemas/goal.ts";
export { DEFAULT_EMPLOYMENT_TYPE, EMPLOYMENT_TYPES } from "./schemas/experience.ts";
export { DEFAULT_PROFICIENCY, PROFICIENCIES, SKILL_CATEGORIES } from "./schemas/skill.ts";
export { CERTIFICATION_TYPES, DEFAULT_CERTIFICATION_TYPE } from "./schemas/certification.ts";
export { profileFields, type Profile } from "./schemas/profile.ts";
export type { WholeResume } from "./schemas/whole-resume.ts";
export { THEME_NAMES, type ThemeName } from "./themes/theme-names.ts";
export type { AccessToken, TokenScope } from "./schemas/access-token.ts";
export {
  tailoredVersionFields,
  type TailoredVersion,
  type VersionInclude,
} from "./schemas/tailored-version.ts";
export { SHARE_LINK_MAX_DAYS, SHARE_LINK_NAME_LENGTH, type ShareLink } from "./schemas/share-link.ts";
export { SECTIONS as JSON_RESUME_SECTIONS } from "./json-resume/json-resume-mapping.ts";
export { describeUnshown, unshownPartsOf } from "./json-resume/describe-unshown.ts";
export type { ResumeAppRouter } from "./router.ts";
export { DATE_PRECISIONS, DEFAULT_DATE_PRECISION, dateRange, resumeDate } from "./resume-dates.ts";
export { enumLabel } from "./enum-label.ts";
export { LINE_BREAK } from "./line-breaks.ts";
export { renameFields } from "./rename-fields.ts";
export { resumeFileName } from "./documents/attachment-disposition.ts";

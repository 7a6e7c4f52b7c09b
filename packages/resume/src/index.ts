export { COLLECTIONS, type Collection, type CollectionName } from "./collections.ts";
export { LIMITS } from "./limits.ts";
export { API_VERSION, resumeOpenApiDocument } from "./openapi.ts";
export { resumeAppRouter, type ResumeAppRouter } from "./router.ts";
export { WHOLE_RESUME_PATH } from "./routers/resume-router.ts";
export { profileFields, type Profile, type ProfileInput } from "./schemas/profile.ts";
export { GOAL_MOVES } from "./schemas/goal.ts";
export { getWholeResume } from "./store/resume-store.ts";
export { purgeExpiredRows } from "./store/collection-store.ts";
export type { WholeResume } from "./schemas/whole-resume.ts";
export {
  CLIENT_ADDRESS_REQUESTS,
  leaseRequests,
  USER_REQUESTS,
  type RequestCounter,
} from "./store/rate-limits.ts";
export { readResumeVersions } from "./store/resume-versions.ts";
export { refuseUnlessAdmitted } from "./trpc.ts";
export type { ResumeContext, ResumeIdentity, WholeResumeChange, WriteOutcome } from "./trpc.ts";
export { ACCESS_TOKEN_PREFIX, findAccessTokens, type AccessTokenGrant } from "./store/access-tokens.ts";
export { answerInFormat } from "./routers/resume-formats.ts";
export { PAPER_SIZES, type PaperSize } from "./documents/render-resume-pdf.ts";
export { TAILORED_RESUME_PATH } from "./routers/tailored-version-router.ts";
export { getTailoredResume } from "./store/tailored-versions.ts";
export {
  addShareLinkViews,
  type CountedViews,
  findSharedVersions,
  SLUG_PATTERN,
  slugHashOf,
  type SharedVersion,
} from "./store/share-links.ts";
export { withDownloadLinks } from "./themes/shared-page-links.ts";
export { THEME_NAMES } from "./themes/theme-names.ts";

import { buildOpenApiDocument } from "@app/rest";
import { resumeAppRouter } from "./router.ts";

export const API_VERSION = "1.0.0";

/** The OpenAPI 3.1 document of every /me route. */
export const resumeOpenApiDocument = buildOpenApiDocument(resumeAppRouter, {
  title: "Resume service",
  version: API_VERSION,
  description:
    "A person's resume under /me: profile, experience, education, skills, certifications, hobbies, goals, " +
    "and the whole resume as JSON, JSON Resume, Markdown, a themed page, PDF, Word or plain text (and imported with PUT); " +
    "tailored versions of it (some entries, a headline of their own) and share links to them, whose public pages (/r/{slug}) take no token. Every route takes `Authorization: Bearer <token>`: a JWT of the sign-in provider or a personal access token; " +
    "every response carries `API-Version`. Errors share one body: " +
    '`{"statusCode","error","message","issues"?}`.',
  license: { name: "Proprietary (private package; see README)", identifier: "LicenseRef-Proprietary" },
  contact: { name: "The resume service's maintainers (see README.md)" },
  securitySchemes: {
    bearerAuth: {
      type: "http",
      scheme: "bearer",
      description:
        "A session token (JWT) of the identity provider, or a personal access token (`rsm_...`, POST /me/tokens).",
    },
  },
  commonErrors: {
    401: "No token, or one that is invalid or expired (see WWW-Authenticate).",
    429: "Over the per-user rate limit (see Retry-After).",
    503: "The database is unavailable.",
  },
  writeErrors: { 403: "INSUFFICIENT_SCOPE: a personal access token without resume:write." },
});

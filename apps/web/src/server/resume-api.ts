import {
  apiErrorBody,
  createRestHandler,
  createResponseControl,
  errorResponse,
  type ResponseControl,
  type RestRequest,
} from "@app/rest";
import {
  API_VERSION,
  createRateLimiter,
  LIMITS,
  resumeAppRouter,
  resumeOpenApiDocument,
  type ResumeContext,
} from "@app/resume";
import { webEnv } from "~/env";
import { identify } from "./auth";
import { database } from "./db";

let rateLimiter: ReturnType<typeof createRateLimiter> | undefined;

/**
 * The context of every resume procedure, over REST and over tRPC alike. Only
 * the editor's tRPC transport reads the session cookie; REST takes bearer tokens.
 */
export async function createResumeContext(
  request: Pick<RestRequest, "headers">,
  response: ResponseControl = createResponseControl(),
  { acceptSessionCookie = false } = {},
): Promise<ResumeContext> {
  rateLimiter ??= createRateLimiter(webEnv().RATE_LIMIT_PER_MINUTE);
  return {
    db: database(),
    identity: await identify(request, { acceptSessionCookie }),
    rateLimiter,
    response,
  };
}

export function logApiError(error: unknown, path: string | undefined) {
  const { code, cause } = error as { code?: string; cause?: unknown };
  if (code === "INTERNAL_SERVER_ERROR" || code === "SERVICE_UNAVAILABLE")
    console.error(`[resume] ${path ?? "?"}:`, cause ?? error);
}

const rest = createRestHandler({
  router: resumeAppRouter,
  document: resumeOpenApiDocument,
  createContext: (request, response) => createResumeContext(request, response),
  maxBodyBytes: LIMITS.bodyBytes,
  apiVersion: API_VERSION,
  onError: logApiError,
});

/** `/me/*` over REST. Whatever escapes still answers the documented 500 body. */
export async function handleResumeRest(request: Request): Promise<Response> {
  try {
    return await rest.handleFetch(request);
  } catch (error) {
    logApiError({ code: "INTERNAL_SERVER_ERROR", cause: error }, new URL(request.url).pathname);
    return errorResponse(apiErrorBody(500, "internal error"), { "API-Version": API_VERSION });
  }
}

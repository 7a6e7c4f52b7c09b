import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { resumeAppRouter } from "@app/resume";
import { createResumeContext, logApiError } from "~/server/resume-api";

export const dynamic = "force-dynamic";

/** The same router for the editor, over tRPC's own transport. */
function handler(request: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: resumeAppRouter,
    createContext: () => createResumeContext(request, undefined, { acceptSessionCookie: true }),
    onError: ({ error, path }) => logApiError(error, path),
  });
}

export { handler as GET, handler as POST };

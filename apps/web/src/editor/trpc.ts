import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import type { ResumeAppRouter } from "@app/resume/client";

type BearerTokenSource = () => Promise<string | null>;
let bearerTokenSource: BearerTokenSource | undefined;

/** Where the editor's bearer token comes from (Clerk); without one, the session cookie signs calls in. */
export function setBearerTokenSource(source: BearerTokenSource | undefined) {
  bearerTokenSource = source;
}

/** The editor's one data path: the resume router over tRPC. */
export const api = createTRPCClient<ResumeAppRouter>({
  links: [
    httpBatchLink({
      url: "/api/trpc",
      async headers() {
        const token = await bearerTokenSource?.();
        return token ? { authorization: `Bearer ${token}` } : {};
      },
    }),
  ],
});

export interface SaveFailure {
  kind: "invalid" | "signed-out" | "offline" | "conflict" | "other";
  message: string;
  /** Field path -> message, from the server's `issues`. */
  fieldErrors: Record<string, string>;
}

/** What went wrong with a call, in terms the editor shows. */
export function describeFailure(error: unknown): SaveFailure {
  if (!(error instanceof TRPCClientError)) {
    return {
      kind: "offline",
      message: "Could not reach the server. Nothing you typed is lost; try again.",
      fieldErrors: {},
    };
  }
  const data = error.data as
    | { httpStatus?: number; body?: { message?: string; issues?: { path: string; message: string }[] } }
    | undefined;
  const fieldErrors = Object.fromEntries((data?.body?.issues ?? []).map((i) => [i.path, i.message]));
  const message = data?.body?.message ?? error.message;
  switch (data?.httpStatus) {
    case 400:
      return { kind: "invalid", message: "Please fix the highlighted fields.", fieldErrors };
    case 401:
      return {
        kind: "signed-out",
        message: "Your session has expired. Sign in again; what you typed is kept.",
        fieldErrors,
      };
    case 409:
      return { kind: "conflict", message, fieldErrors };
    default:
      return {
        kind: data?.httpStatus ? "other" : "offline",
        message: data?.httpStatus
          ? message
          : "Could not reach the server. Nothing you typed is lost; try again.",
        fieldErrors,
      };
  }
}

import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError } from "@trpc/client";
import type { ResumeAppRouter } from "@app/resume/client";

type BearerTokenSource = () => Promise<string | null>;
let bearerTokenSource: BearerTokenSource | undefined;

/** Where the editor's bearer token comes from (Clerk); without one, the session cookie signs calls in. */
export function setBearerTokenSource(source: BearerTokenSource | undefined) {
  bearerTokenSource = source;
}

/** The editor's bearer token as a header (Clerk); none where the session cookie signs calls in. */
export async function authorization(): Promise<Record<string, string>> {
  const token = await bearerTokenSource?.();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** Headers of one call (`context.headers`): an Idempotency-Key, an If-Match. */
type CallHeaders = Record<string, string>;

/**
 * The editor's one data path: the resume router over tRPC. A call with
 * headers of its own in its context (a create's Idempotency-Key, a write's
 * If-Match) goes alone, with them.
 */
export const api = createTRPCClient<ResumeAppRouter>({
  links: [
    splitLink({
      condition: (op) => op.context.headers !== undefined,
      true: httpLink({
        url: "/api/trpc",
        headers: async ({ op }) => ({
          ...(await authorization()),
          ...(op.context.headers as CallHeaders),
        }),
      }),
      false: httpBatchLink({ url: "/api/trpc", headers: authorization }),
    }),
  ],
});

/**
 * The Idempotency-Key of a create from the form whose draft is `draftKey`:
 * the same while the input is the same, so that submitting again after a
 * failure (whose create may have been written) gets the first answer back
 * instead of a second entry; a new one for other input. Kept beside the draft.
 */
export function idempotencyKeyFor(draftKey: string, input: unknown): string {
  const storageKey = `${draftKey}:idempotency-key`;
  const body = JSON.stringify(input);
  const stored = JSON.parse(window.sessionStorage.getItem(storageKey) ?? "null") as {
    key: string;
    body: string;
  } | null;
  if (stored?.body === body) return stored.key;
  // getRandomValues, not randomUUID: the editor may be served over plain http, where only the former exists.
  const key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
  window.sessionStorage.setItem(storageKey, JSON.stringify({ key, body }));
  return key;
}

/**
 * The headers that make a write go only over the version (`updated_at`) a
 * form was opened from, or only where there was none yet (`null`): a save
 * over what another tab or app saved meanwhile is then refused (412), not
 * made unseen.
 */
export function onlyOver(version: string | null): { headers: CallHeaders } {
  return { headers: version === null ? { "if-none-match": "*" } : { "if-match": `"${version}"` } };
}

export function forgetIdempotencyKey(draftKey: string): void {
  window.sessionStorage.removeItem(`${draftKey}:idempotency-key`);
}

/** Whether a call failed because what it named is not there (404). */
export const isNotFound = (error: unknown): boolean => describeFailure(error).kind === "gone";

export interface SaveFailure {
  kind: "invalid" | "signed-out" | "offline" | "conflict" | "changed" | "gone" | "too-large" | "other";
  message: string;
  /** Field path -> message, from the server's `issues`. */
  fieldErrors: Record<string, string>;
}

/**
 * What went wrong with a call, in terms the editor shows. Components take it
 * from useFailureHandler, which also reports an expired session.
 */
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
    case 404:
      return { kind: "gone", message, fieldErrors };
    case 409:
      return { kind: "conflict", message, fieldErrors };
    case 413:
      // The server's own word for it is a code ("PAYLOAD_TOO_LARGE"): said in words, as the REST 413 says it.
      return {
        kind: "too-large",
        message: "This is larger than the server takes, so nothing was saved.",
        fieldErrors,
      };
    case 412:
      return {
        kind: "changed",
        message: "This was changed in another tab or app after you opened it, so nothing was saved.",
        fieldErrors,
      };
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

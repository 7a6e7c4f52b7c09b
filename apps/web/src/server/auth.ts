import {
  AuthenticationError,
  createTokenVerifier,
  resolveAuthSetup,
  type AuthSetup,
  type TokenVerifier,
  type VerifiedIdentity,
} from "@app/auth";
import { webEnv } from "~/env";
import { sessionToken } from "./session";

let setup: Promise<AuthSetup> | undefined;
let verifier: Promise<TokenVerifier> | undefined;

/** The identity provider chosen by configuration (see README, "Authentication"). */
export function authSetup(): Promise<AuthSetup> {
  const env = webEnv();
  setup ??= resolveAuthSetup(
    { ...env, CLERK_PUBLISHABLE_KEY: env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY },
    env.DATA_DIR,
  );
  return setup;
}

/**
 * Who the request's bearer token names, or why it names no one. One verifier
 * for REST and the editor; the editor (tRPC) may carry its token in the
 * session cookie instead of a header.
 */
export async function identify(
  request: { headers: { get(name: string): string | null } },
  { acceptSessionCookie = false } = {},
): Promise<VerifiedIdentity | AuthenticationError> {
  verifier ??= authSetup().then((s) => createTokenVerifier(s.verifier));
  const cookieToken = acceptSessionCookie ? sessionToken(request.headers.get("cookie")) : undefined;
  const authorization =
    request.headers.get("authorization") ?? (cookieToken ? `Bearer ${cookieToken}` : null);
  try {
    return await (
      await verifier
    )(authorization);
  } catch (error) {
    if (error instanceof AuthenticationError) return error;
    throw error;
  }
}

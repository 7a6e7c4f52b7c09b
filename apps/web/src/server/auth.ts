import {
  AuthenticationError,
  createTokenVerifier,
  resolveAuthSetup,
  type AuthSetup,
  type TokenVerifier,
  type VerifiedIdentity,
} from "@app/auth";
import { webEnv } from "~/env";

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

/** Who the request's bearer token names, or why it names no one. One verifier for the UI and REST. */
export async function identify(request: Request): Promise<VerifiedIdentity | AuthenticationError> {
  verifier ??= authSetup().then((s) => createTokenVerifier(s.verifier));
  try {
    return await (
      await verifier
    )(request.headers.get("authorization"));
  } catch (error) {
    if (error instanceof AuthenticationError) return error;
    throw error;
  }
}

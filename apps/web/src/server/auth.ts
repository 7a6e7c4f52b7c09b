import { createTokenVerifier, resolveAuthSetup, type AuthSetup, type TokenVerifier } from "@app/auth";
import { webEnv } from "../env.ts";

let setup: Promise<AuthSetup> | undefined;
let verifier: Promise<TokenVerifier> | undefined;

/** The identity provider chosen by configuration (see docs/resume-api.md, "Authentication"). */
export function authSetup(): Promise<AuthSetup> {
  const env = webEnv();
  setup ??= resolveAuthSetup(
    { ...env, CLERK_PUBLISHABLE_KEY: env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY },
    env.DATA_DIR,
  );
  return setup;
}

/** The verifier of the provider's tokens, for the pages (the API builds its own in main.ts). */
export function tokenVerifier(): Promise<TokenVerifier> {
  verifier ??= authSetup().then((s) => createTokenVerifier(s.verifier));
  return verifier;
}

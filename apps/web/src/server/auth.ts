import { resolveAuthSetup, type AuthSetup } from "@app/auth";
import { webEnv } from "~/env";

let setup: Promise<AuthSetup> | undefined;

/** The identity provider chosen by configuration (see README, "Authentication"). */
export function authSetup(): Promise<AuthSetup> {
  const env = webEnv();
  setup ??= resolveAuthSetup(
    { ...env, CLERK_PUBLISHABLE_KEY: env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY },
    env.DATA_DIR,
  );
  return setup;
}

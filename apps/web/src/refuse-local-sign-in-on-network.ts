import { ConfigurationError } from "@app/service";
import { webEnv } from "./env.ts";
import { authSetup } from "./server/auth.ts";

/**
 * Refuses to start with the local sign-in, where anyone signs in as anyone,
 * on a HOST other machines reach: a deployment that forgot its identity
 * provider's settings would otherwise open every resume to whoever asks.
 */
export async function refuseLocalSignInOnNetwork(): Promise<void> {
  const env = webEnv();
  if ((await authSetup()).mode !== "local" || isLoopback(env.HOST) || env.LOCAL_SIGN_IN_ON_NETWORK) return;
  throw new ConfigurationError(
    `HOST ${env.HOST} is reached from other machines, and with no identity provider set (AUTH_JWKS_URL, ` +
      "AUTH_PUBLIC_KEY or NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY) the sign-in is the local one, where anyone signs " +
      "in as anyone: set one, or LOCAL_SIGN_IN_ON_NETWORK=true on a network you trust",
  );
}

const isLoopback = (host: string) =>
  host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);

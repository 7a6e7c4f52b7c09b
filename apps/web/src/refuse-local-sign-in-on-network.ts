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

/**
 * Whether the server answers only requests that name a loopback host: with
 * the local sign-in, unless LOCAL_SIGN_IN_ON_NETWORK opened it (acceptsHost).
 */
export async function servesLoopbackNamesOnly(): Promise<boolean> {
  return (await authSetup()).mode === "local" && !webEnv().LOCAL_SIGN_IN_ON_NETWORK;
}

/**
 * Whether a request's `Host` names this machine's loopback (`localhost`,
 * `*.localhost`, `127.x.y.z`, `[::1]`, any port), or is not sent (HTTP/1.0).
 * A page of another site whose name was pointed at 127.0.0.1 (DNS
 * rebinding) reaches a server on loopback with its own name in `Host`: with
 * the local sign-in it could sign in as anyone and read every resume.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  if (!URL.canParse(`http://${host}`)) return false;
  const { hostname } = new URL(`http://${host}`);
  // The URL writes an IPv6 address in brackets, and names any subdomain of localhost (RFC 6761) loopback.
  return isLoopback(hostname.replace(/^\[(.*)\]$/, "$1")) || hostname.endsWith(".localhost");
}

import { loadLocalIssuer, LOCAL_AUDIENCE, LOCAL_ISSUER, type LocalIssuer } from "./local-issuer.ts";
import type { TokenVerifierConfig } from "./verify-bearer-token.ts";

/** The identity-provider settings an app reads from its environment. */
export interface AuthSettings {
  AUTH_ISSUER?: string | undefined;
  AUTH_AUDIENCE?: string | undefined;
  AUTH_JWKS_URL?: string | undefined;
  AUTH_PUBLIC_KEY?: string | undefined;
  CLERK_PUBLISHABLE_KEY?: string | undefined;
}

export type AuthSetup =
  | { mode: "local"; verifier: TokenVerifierConfig; localIssuer: LocalIssuer }
  | { mode: "clerk" | "oidc"; verifier: TokenVerifierConfig };

/**
 * Chooses the identity provider by configuration alone:
 * - `AUTH_JWKS_URL` or `AUTH_PUBLIC_KEY`: any OIDC issuer (needs `AUTH_ISSUER` and `AUTH_AUDIENCE`);
 * - `CLERK_PUBLISHABLE_KEY`: Clerk, whose issuer and JWKS follow from the key (needs `AUTH_AUDIENCE`);
 * - nothing: the local development issuer, its key under `dataDir`.
 * An issuer or audience set with no key is refused, not read as "nothing": a
 * deployment that forgot its JWKS would otherwise start with the local
 * sign-in, where anyone signs in as anyone, under its real issuer's name.
 */
export async function resolveAuthSetup(settings: AuthSettings, dataDir: string): Promise<AuthSetup> {
  if (settings.AUTH_JWKS_URL || settings.AUTH_PUBLIC_KEY) {
    const issuer = required(settings.AUTH_ISSUER, "AUTH_ISSUER");
    const audience = required(settings.AUTH_AUDIENCE, "AUTH_AUDIENCE");
    const key = settings.AUTH_JWKS_URL
      ? { jwksUrl: settings.AUTH_JWKS_URL }
      : { publicKeyPem: settings.AUTH_PUBLIC_KEY! };
    return { mode: "oidc", verifier: { issuer, audience, key } };
  }
  if (settings.CLERK_PUBLISHABLE_KEY) {
    const issuer = settings.AUTH_ISSUER ?? clerkIssuer(settings.CLERK_PUBLISHABLE_KEY);
    const audience = required(settings.AUTH_AUDIENCE, "AUTH_AUDIENCE");
    return {
      mode: "clerk",
      verifier: { issuer, audience, key: { jwksUrl: `${issuer}/.well-known/jwks.json` } },
    };
  }
  for (const name of ["AUTH_ISSUER", "AUTH_AUDIENCE"] as const) {
    if (settings[name]) {
      throw new Error(
        `${name} is set but no identity provider is: set AUTH_JWKS_URL or AUTH_PUBLIC_KEY (any OIDC issuer) ` +
          `or NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY (Clerk) with it, or unset it for the local sign-in`,
      );
    }
  }
  const localIssuer = await loadLocalIssuer({ dataDir, issuer: LOCAL_ISSUER, audience: LOCAL_AUDIENCE });
  return {
    mode: "local",
    localIssuer,
    verifier: { issuer: localIssuer.issuer, audience: localIssuer.audience, key: { jwks: localIssuer.jwks } },
  };
}

/** Clerk's publishable key is `pk_(test|live)_` + base64 of its Frontend API host and a `$`. */
export function clerkIssuer(publishableKey: string): string {
  const encoded = publishableKey.replace(/^pk_(test|live)_/, "");
  const host = Buffer.from(encoded, "base64").toString("utf8").replace(/\$$/, "");
  if (!/^[a-z0-9.-]+$/i.test(host)) throw new Error("CLERK_PUBLISHABLE_KEY is not a Clerk publishable key");
  return `https://${host}`;
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} must be set with this identity provider`);
  return value;
}

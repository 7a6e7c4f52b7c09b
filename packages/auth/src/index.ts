export { resolveAuthSetup, clerkIssuer, type AuthSettings, type AuthSetup } from "./auth-config.ts";
export { loadLocalIssuer, LOCAL_AUDIENCE, LOCAL_ISSUER, type LocalIssuer } from "./local-issuer.ts";
export {
  ALLOWED_ALGORITHMS,
  AuthenticationError,
  CLOCK_TOLERANCE_SECONDS,
  createTokenVerifier,
  type AuthenticationFailure,
  type KeySource,
  type TokenVerifier,
  type TokenVerifierConfig,
  type TokenVerifierOptions,
  type VerifiedIdentity,
} from "./verify-bearer-token.ts";
export { createVerifiedTokenCache, type VerifiedTokenCache } from "./verified-token-cache.ts";

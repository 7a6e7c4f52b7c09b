export { resolveAuthSetup, clerkIssuer, type AuthSettings, type AuthSetup } from "./auth-config.ts";
export { loadLocalIssuer, type LocalIssuer } from "./local-issuer.ts";
export {
  AuthenticationError,
  createTokenVerifier,
  IdentityProviderUnavailable,
  type AuthenticationFailure,
  type KeySource,
  type TokenVerifier,
  type TokenVerifierConfig,
  type TokenVerifierOptions,
  type VerifiedIdentity,
} from "./verify-bearer-token.ts";

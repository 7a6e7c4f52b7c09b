export {
  ensureDevelopmentCredentials,
  loadCredentials,
  type Credential,
  type CredentialStore,
} from "./credentials.ts";
export { SigV4Error, type SigV4ErrorName } from "./sigv4-error.ts";
export { deriveSigningKey } from "./signing-key-cache.ts";
export {
  normalizeSigV4Path,
  splitTarget,
  verifySigV4Request,
  type ReceivedRequest,
  type VerifyOptions,
} from "./verify-sigv4-request.ts";

export {
  ensureDevelopmentCredentials,
  loadCredentials,
  type Credential,
  type CredentialStore,
} from "./credentials.ts";
export { SigV4Error, type SigV4ErrorName } from "./sigv4-error.ts";
export { deriveSigningKey } from "./signing-key-cache.ts";
export type { ReceivedRequest } from "./received-request.ts";
export { normalizeSigV4Path, splitTarget } from "./request-target.ts";
export { verifySigV4Request, type VerifyOptions } from "./verify-sigv4-request.ts";

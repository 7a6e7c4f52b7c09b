/** AWS's names for why a signed request is refused, sent in the body's `error` and in `x-amzn-ErrorType`. */
export type SigV4ErrorName =
  | "MissingAuthenticationToken"
  | "AuthorizationHeaderMalformed"
  | "InvalidAccessKeyId"
  | "SignatureDoesNotMatch"
  | "RequestTimeTooSkewed"
  | "AccessDenied";

const STATUS: Record<SigV4ErrorName, number> = {
  MissingAuthenticationToken: 403,
  AuthorizationHeaderMalformed: 400,
  InvalidAccessKeyId: 403,
  SignatureDoesNotMatch: 403,
  RequestTimeTooSkewed: 403,
  AccessDenied: 403,
};

export class SigV4Error extends Error {
  override name = "SigV4Error";
  readonly status: number;
  constructor(
    readonly errorName: SigV4ErrorName,
    message: string,
  ) {
    super(message);
    this.status = STATUS[errorName];
  }
}

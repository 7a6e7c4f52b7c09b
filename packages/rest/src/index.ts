export {
  apiErrorOf,
  apiIssuesOf,
  domainErrorsForTrpc,
  formatTrpcError,
  invalidRequestError,
  invalidRequestMessage,
  trpcErrorFor,
  trpcErrorOf,
  type ApiError,
  type ApiErrorBody,
  type ApiIssue,
  type DescribeIssue,
} from "./api-error.ts";
export {
  DomainError,
  serviceUnavailable,
  type DomainErrorOptions,
  type DomainStatus,
} from "./domain-error.ts";
export {
  errorAnswer,
  errorAnswerOf,
  failureAnswer,
  jsonAnswer,
  methodNotAllowedAnswer,
  READ_METHODS,
  type Answer,
  type RestRequest,
  type RestResponse,
} from "./answer.ts";
export {
  buildOpenApiDocument,
  ETAG_HEADER,
  type DocumentOptions,
  type RestMeta,
  type ServiceMeta,
} from "./openapi-document.ts";
export { createResponseControl, type ResponseControl } from "./response-control.ts";
export { healthAnswer } from "./health.ts";
export {
  idempotencyKeyHeader,
  idempotencyKeyOf,
  REPLAYED_HEADER,
  retrySafeDescription,
} from "./idempotency-key.ts";
export {
  entityTagOf,
  hasPreconditions,
  PRECONDITION_HEADERS,
  preconditionHeadersOf,
  versionCheckOf,
  type PreconditionHeaders,
  type VersionCheck,
} from "./preconditions.ts";
export { badTargetAnswer, parseRequestTarget, type RequestTarget } from "./request-target.ts";
export {
  createRestHandler,
  type RestContext,
  type RestCall,
  type RestHandler,
  type RestHandlerOptions,
} from "./rest-handler.ts";
export type { Procedure, Route, RouteTable } from "./route-table.ts";

export { ClientAbortedError, readBody, restRequestOf, sendAnswer } from "./node-http.ts";
export { synchronouslyParsed } from "./synchronously-parsed.ts";

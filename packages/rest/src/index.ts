export {
  apiIssuesOf,
  DATABASE_UNAVAILABLE,
  databaseOutageAs503,
  DomainError,
  formatTrpcError,
  invalidRequestMessage,
  type ApiErrorBody,
  type ApiIssue,
  type DescribeIssue,
} from "./api-error.ts";
export {
  errorAnswer,
  failureAnswer,
  jsonAnswer,
  methodNotAllowedAnswer,
  queryParamsOf,
  READ_METHODS,
  type Answer,
  type RestRequest,
  type RestResponse,
} from "./answer.ts";
export {
  buildOpenApiDocument,
  type DocumentOptions,
  type RestMeta,
  type ServiceMeta,
} from "./openapi-document.ts";
export { createResponseControl, type ResponseControl } from "./response-control.ts";
export { healthAnswer } from "./health.ts";
export { idempotencyKeyHeader, idempotencyKeyOf } from "./idempotency-key.ts";
export { badTargetAnswer } from "./request-target.ts";
export {
  createRestHandler,
  type RestCall,
  type RestHandler,
  type RestHandlerOptions,
} from "./rest-handler.ts";
export type { RestContext } from "./trpc-to-openapi-call.ts";
export { ClientAbortedError, readBody, restRequestOf, sendAnswer } from "./node-http.ts";

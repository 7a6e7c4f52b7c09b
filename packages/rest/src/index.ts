export {
  apiErrorBody,
  DATABASE_UNAVAILABLE,
  databaseOutageAs503,
  DomainError,
  errorNameForStatus,
  formatIssues,
  formatTrpcError,
  type ApiErrorBody,
  type ApiIssue,
} from "./api-error.ts";
export {
  buildOpenApiDocument,
  type DocumentOptions,
  type RestMeta,
  type ServiceMeta,
} from "./openapi-document.ts";
export { createResponseControl, type ResponseControl } from "./response-control.ts";
export { healthAnswer } from "./health.ts";
export {
  createRestHandler,
  jsonAnswer,
  type RestHandler,
  type RestHandlerOptions,
  type RestRequest,
  type RestResponse,
} from "./rest-handler.ts";
export { closeOnSignals, readBody, restRequestOf, sendAnswer, type Answer } from "./node-http.ts";

export { createLogger, routeConsoleToLogger, type Logger } from "./logger.ts";
export { createServiceMetrics, serveMetrics, type PoolStats, type ServiceMetrics } from "./metrics.ts";
export { currentRequest, type RequestRecord } from "./request-context.ts";
export {
  createServiceServer,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  shutdownSignal,
  type ServiceServer,
  type ServiceServerOptions,
} from "./service-server.ts";
export { serviceSettings } from "./service-settings.ts";

export { createFailureReporter, type FailureReporter } from "./failure-reporter.ts";
export { createLogger, routeConsoleToLogger, type Logger } from "./logger.ts";
export { createServiceMetrics, serveMetrics, type ServiceMetrics } from "./metrics.ts";
export { runWithRequest, type RequestRecord } from "./request-context.ts";
export {
  createServiceServer,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  type ServiceServer,
  type ServiceServerOptions,
} from "./service-server.ts";
export { listenOrExit, type ListeningMessage } from "./listen-or-exit.ts";
export { runUntilShutdown } from "./run-until-shutdown.ts";
export { ConfigurationError, readSettings, serviceSettings } from "./service-settings.ts";
export { exitOnStartupFailure } from "./exit-on-startup-failure.ts";

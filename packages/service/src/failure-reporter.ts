import type { Logger } from "./logger.ts";
import type { ServiceMetrics } from "./metrics.ts";

export interface FailureReporter {
  /**
   * A failure of the service itself (it answers 500 or 503): an error line
   * (naming the request by `requestId` when given), and its class when the
   * database failed.
   */
  report(where: string, error: unknown, requestId?: string): void;
  /** The REST handler's and tRPC's onError: reports what the service answered 500 or 503 for, nothing else. */
  onProcedureError(error: unknown, path: string | undefined, requestId?: string): void;
}

/**
 * `classify` names a database failure's class (connection, timeout, ...,
 * other) for `db_errors_total`, or null when the error is not the database's.
 */
export function createFailureReporter(
  logger: Logger,
  metrics: ServiceMetrics | undefined,
  classify: (error: unknown) => string | null,
): FailureReporter {
  function report(where: string, error: unknown, requestId?: string) {
    const errorClass = classify(error);
    if (errorClass) metrics?.countDatabaseError(errorClass);
    logger.error({ err: error, where, ...(requestId ? { request_id: requestId } : {}) }, "request failed");
  }
  return {
    report,
    onProcedureError(error, path, requestId) {
      const { code, cause } = error as { code?: string; cause?: unknown };
      if (code === "INTERNAL_SERVER_ERROR" || code === "SERVICE_UNAVAILABLE")
        report(path ?? "?", cause ?? error, requestId);
    },
  };
}

import { createLogger, type Logger } from "./logger.ts";
import { ConfigurationError } from "./service-settings.ts";

/**
 * Until `started()`, any failure of a service's start-up (a wrong setting, a
 * credentials file that is not there, an identity provider's setting missing)
 * ends the process with one fatal log line and exit code 1, as a port that
 * cannot be had does (listenOrExit). Without it, a failure after Next.js has
 * prepared would only be logged (Next.js keeps the process alive on an
 * uncaught exception), leaving a process that never listens and never ends;
 * elsewhere it would be Node's stack trace. Call it first, before any setting
 * is read; a wrong setting is told without a stack, anything else with one.
 * Once the service has its logger (`logger`), the line goes through it, after
 * what it logged before; only the first failure is told.
 */
export function exitOnStartupFailure(service: string): { logger(logger: Logger): void; started(): void } {
  let serviceLogger: Logger | undefined;
  let failed = false;
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    const logger = serviceLogger ?? createLogger(service);
    if (error instanceof ConfigurationError) logger.fatal(`cannot start: ${error.message}`);
    else
      logger.fatal({ err: error }, `cannot start: ${error instanceof Error ? error.message : String(error)}`);
    logger.flush(() => process.exit(1));
  };
  process.on("uncaughtException", fail);
  process.on("unhandledRejection", fail);
  return {
    logger(logger) {
      serviceLogger = logger;
    },
    started() {
      process.off("uncaughtException", fail);
      process.off("unhandledRejection", fail);
    },
  };
}

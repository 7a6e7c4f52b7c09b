import type { Logger } from "./logger.ts";
import type { ServiceServer } from "./service-server.ts";

/** Past the drain, the longest a request may still take (REQUEST_TIMEOUT_MS) and some room. */
const SHUTDOWN_GRACE_MS = 45_000;
/**
 * How long closing listeners and pools may take once every request is
 * answered: closing a connection waits for the database's answer, which a
 * hung database never sends.
 */
const CLOSE_MS = 3_000;

/**
 * A service process's life after it has started: at the first SIGINT,
 * SIGTERM or SIGHUP (later ones are ignored: a shutdown under way is not cut
 * short), a drained shutdown of `service` over `drainMs`, then `close()`
 * (listeners, pools, given CLOSE_MS), then exit 0 once the log is written.
 * Whatever still hangs SHUTDOWN_GRACE_MS after the drain does not keep the
 * process alive (exit 1). A process started with an IPC channel (by `npm start`) shuts
 * down the same way when the channel closes: its parent is gone, and a
 * server nobody will stop must not outlive it.
 */
export async function runUntilShutdown({
  service,
  drainMs,
  logger,
  close,
}: {
  service: ServiceServer;
  drainMs: number;
  logger: Logger;
  close(): Promise<unknown>;
}): Promise<void> {
  const signal = await new Promise<NodeJS.Signals | "parent gone">((resolve) => {
    for (const name of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(name, () => resolve(name));
    if (process.channel) {
      process.channel.unref(); // the channel alone keeps no server alive
      process.once("disconnect", () => resolve("parent gone"));
    }
  });
  logger.info({ signal }, "shutting down");
  setTimeout(() => process.exit(1), drainMs + SHUTDOWN_GRACE_MS).unref();
  await service.drain(drainMs);
  const closed = await Promise.race([
    close().then(() => true),
    new Promise<false>((resolve) => setTimeout(resolve, CLOSE_MS, false).unref()),
  ]);
  if (!closed)
    logger.warn({ close_ms: CLOSE_MS }, "closing listeners and connections took too long: left open");
  logger.flush(() => process.exit(0));
}

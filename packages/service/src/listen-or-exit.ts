import type { Server } from "node:net";
import type { Logger } from "./logger.ts";

/** What a parent that opened an IPC channel (`npm start`) hears once the service listens. */
export interface ListeningMessage {
  type: "listening";
  port: number;
}

export interface ListenSettings {
  port: number;
  host: string;
  /** The variable that sets the port, named in the line that says it cannot be had. */
  setting: string;
  logger: Logger;
  /** Whether a parent with an IPC channel is told (default true; not for a metrics listener). */
  announce?: boolean;
}

/**
 * Starts `server` listening on `port`. A port that cannot be had (another
 * program holds it, or it needs privileges) ends the process with one log line
 * that says which port and what to do, and exit code 1: there is nothing the
 * service can do without it, and a stack trace tells a person less. A parent
 * that started this process with an IPC channel is told when it listens, so
 * it can say "ready" about this process and not about whatever else answers
 * on the port.
 */
export function listenOrExit(
  server: Server,
  { port, host, setting, logger, announce = true }: ListenSettings,
): Promise<void> {
  return new Promise((resolve) => {
    const cannotListen = (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === "EADDRINUSE"
          ? `port ${port} (${setting}) is in use by another program; stop it, or set ${setting} to a free port`
          : `cannot listen on ${host}:${port} (${setting}): ${error.code ?? error.message}`;
      logger.fatal({ port, host, code: error.code }, reason);
      logger.flush(() => process.exit(1));
    };
    server.once("error", cannotListen);
    server.listen(port, host, () => {
      server.off("error", cannotListen); // later errors are the server's own, not this one
      if (announce && process.send && process.connected) {
        const message: ListeningMessage = { type: "listening", port };
        process.send(message);
      }
      resolve();
    });
  });
}

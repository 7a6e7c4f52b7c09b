/**
 * What `npm start` makes sure of before it touches anything (the Prisma
 * client, the database, the build): that no other `npm start` runs on this
 * checkout's data, and that the servers' ports are free. Either failing ends
 * the command at once with one sentence, leaving a running instance as it was
 * (a second build under it broke its pages).
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { isAlive } from "./launching-processes.ts";

export class StartRefused extends Error {}

/**
 * Takes the checkout's start lock: `<DATA_DIR>/npm-start.pid` holds the pid
 * of the `npm start` that runs on it. A lock whose process is gone (killed,
 * the machine restarted) is taken over. Returns the function that releases it.
 */
export function lockCheckout(dataDir: string): () => void {
  const lockFile = path.join(dataDir, "npm-start.pid");
  mkdirSync(dataDir, { recursive: true });
  for (;;) {
    try {
      const fd = openSync(lockFile, "wx", 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number(readFileSync(lockFile, "utf8").trim());
    if (isStartProcess(holder)) {
      throw new StartRefused(
        `npm start is already running on this checkout (pid ${holder}); use that one, or stop it first ` +
          `(Ctrl-C in its terminal, or kill ${holder})`,
      );
    }
    rmSync(lockFile, { force: true }); // its process is gone
  }
}

/** Whether `pid` is alive and, where /proc tells, a start script (a pid reused by another program is not). */
function isStartProcess(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("start.ts");
  } catch {
    return true; // no /proc here: a live pid is taken at its word
  }
}

/** Refuses when a port the servers will listen on is taken (by another program, or another instance). */
export async function ensurePortsFree(host: string, ports: Record<string, number>): Promise<void> {
  const settings = Object.keys(ports);
  for (const [setting, port] of Object.entries(ports)) {
    const same = settings.find((other) => other !== setting && ports[other] === port);
    if (same)
      throw new StartRefused(`${setting} and ${same} are both ${port}; give each server a port of its own`);
    const problem = await tryListen(host, port);
    if (problem === "EADDRINUSE") {
      throw new StartRefused(
        `port ${port} (${setting}) is in use by another program; stop it, or choose a free port: ${setting}=${port + 1} npm start`,
      );
    }
    if (problem) throw new StartRefused(`cannot listen on ${host}:${port} (${setting}): ${problem}`);
  }
}

function tryListen(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}

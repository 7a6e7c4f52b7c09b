/**
 * What `npm start` makes sure of before it touches anything (the Prisma
 * client, the database, the build): that no other `npm start` runs on the
 * same data, and that the servers' ports are free. Either failing ends the
 * command at once with one sentence, leaving a running instance as it was
 * (a second build under it broke its pages).
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { commandOf, isAlive } from "./launching-processes.ts";

export class StartRefused extends Error {}

/**
 * Takes `lockFile` for this process: the file holds the pid of the
 * `npm start` that owns what it guards. A lock whose process is gone (killed,
 * the machine restarted) is taken over. Returns the function that releases
 * it, or throws StartRefused naming the owner.
 */
export function takeStartLock(lockFile: string, refusal: (pid: number) => string): () => void {
  mkdirSync(path.dirname(lockFile), { recursive: true });
  // Written whole under another name, then linked into place: a reader never sees it half written.
  const mine = `${lockFile}.${process.pid}`;
  writeFileSync(mine, `${process.pid}\n`);
  try {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      try {
        linkSync(mine, lockFile);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const holder = lockHolder(lockFile);
        if (holder === undefined) continue; // released meanwhile
        if (isStartProcess(holder)) throw new StartRefused(refusal(holder));
        takeOverStale(lockFile, refusal);
        continue;
      }
      return () => releaseLock(lockFile);
    }
    throw new StartRefused(`could not take ${lockFile}; remove it if no npm start runs`);
  } finally {
    rmSync(mine, { force: true });
  }
}

/**
 * Moves a stale lock aside (atomically, so two starts cannot both remove it)
 * and looks at what was moved: another start may have taken the lock over
 * in between, and then its lock is put back and this start refused.
 */
function takeOverStale(lockFile: string, refusal: (pid: number) => string): void {
  const aside = `${lockFile}.stale.${process.pid}`;
  try {
    renameSync(lockFile, aside);
  } catch {
    return; // gone meanwhile
  }
  try {
    const moved = lockHolder(aside);
    if (moved !== undefined && isStartProcess(moved)) {
      try {
        linkSync(aside, lockFile);
      } catch {
        // a third start took it: it refuses or runs on its own
      }
      throw new StartRefused(refusal(moved));
    }
  } finally {
    rmSync(aside, { force: true });
  }
}

function lockHolder(lockFile: string): number | undefined {
  try {
    return Number(readFileSync(lockFile, "utf8").trim());
  } catch {
    return undefined;
  }
}

function releaseLock(lockFile: string): void {
  if (lockHolder(lockFile) === process.pid) rmSync(lockFile, { force: true });
}

/** `<DATA_DIR>/npm-start.pid`: one `npm start` per data folder (its database, its keys). */
export function lockDataDir(dataDir: string): () => void {
  return takeStartLock(
    path.join(dataDir, "npm-start.pid"),
    (pid) =>
      `npm start is already running on this checkout's data (pid ${pid}); use that one, or stop it first ` +
      `(Ctrl-C in its terminal, or kill ${pid})`,
  );
}

/**
 * Whether `pid` is alive and a start script: a pid reused by another program
 * is not. Its command line comes from /proc, else from `ps`; where neither
 * answers, a live pid is taken at its word.
 */
export function isStartProcess(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isAlive(pid)) return false;
  return commandOf(pid)?.includes("start.ts") ?? true;
}

/** Refuses when a port the servers will listen on is taken (by another program, or another instance). */
export async function ensurePortsFree(host: string, ports: Record<string, number>): Promise<void> {
  const settings = Object.keys(ports);
  const taken = new Set(Object.values(ports));
  for (const [setting, port] of Object.entries(ports)) {
    const same = settings.find((other) => other !== setting && ports[other] === port);
    if (same)
      throw new StartRefused(`${setting} and ${same} are both ${port}; give each server a port of its own`);
    const problem = await tryListen(host, port);
    if (problem === "EADDRINUSE") {
      let suggestion = port + 1;
      while (taken.has(suggestion)) suggestion += 1;
      throw new StartRefused(
        `port ${port} (${setting}) is in use by another program; stop it, or choose a free port: ${setting}=${suggestion} npm start`,
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

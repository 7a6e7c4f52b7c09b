import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * Freezes the PostgreSQL whose data directory is `directory`, as a server
 * that stops answering without closing anything (a failover, a lost network,
 * a frozen host) looks: stops the postmaster (postmaster.pid's first line)
 * first, so that it starts no process after the list is read, then every
 * process it started; returns them all, to be continued (signal SIGCONT).
 */
export async function freezePostgres(directory: string): Promise<number[]> {
  const postmaster = Number((await readFile(path.join(directory, "postmaster.pid"), "utf8")).split("\n")[0]);
  signal([postmaster], "SIGSTOP");
  const children: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (parent === postmaster) children.push(Number(entry));
  }
  signal(children, "SIGSTOP");
  return [postmaster, ...children];
}

/** Sends `name` to each of `pids`, passing over those already gone. */
export function signal(pids: number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  }
}

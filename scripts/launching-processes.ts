import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * The processes that launched this one and whose end should end it: its
 * parent and, when it runs under `npm start` through npm's shell, npm itself.
 * npm passes SIGTERM to its shell, and the shell (dash) does not pass it on;
 * SIGHUP to npm reaches neither. So the end of npm is the signal here.
 * Where /proc does not tell a process's parent, only the parent is watched.
 */
export function launchingProcesses(): number[] {
  const parent = process.ppid;
  if (!process.env.npm_lifecycle_event || /\bnpm\b|npm-cli/.test(commandOf(parent) ?? "")) return [parent];
  const grandparent = parentOf(parent);
  return grandparent !== undefined && grandparent > 1 ? [parent, grandparent] : [parent];
}

/** The command line of `pid`, from /proc, else from `ps`; undefined where neither tells. */
export function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    try {
      return execFileSync("ps", ["-p", String(pid), "-o", "command="], { encoding: "utf8" });
    } catch {
      return undefined;
    }
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command's closing parenthesis: state, then the parent's pid.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

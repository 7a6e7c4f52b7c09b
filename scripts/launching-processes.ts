import { readFileSync } from "node:fs";

/**
 * The processes that launched this one: its parent and, where /proc tells,
 * the parent's parent. Under `npm start` these are npm's shell and npm, so a
 * signal that ends npm (which does not pass SIGTERM or SIGHUP on) can be seen
 * here as one of them ending.
 */
export function launchingProcesses(): number[] {
  const parent = process.ppid;
  try {
    const stat = readFileSync(`/proc/${parent}/stat`, "utf8");
    // Fields after the command's closing parenthesis: state, then the parent's pid.
    const grandparent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return grandparent > 1 ? [parent, grandparent] : [parent];
  } catch {
    return [parent];
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

/**
 * CPU time of the processes a benchmark compares, read from /proc (Linux):
 * where a request's cost goes (the server, PostgreSQL, the load generator)
 * when a ratio alone does not say. Elsewhere every reading is NaN, printed "-".
 */
import { readdirSync, readFileSync } from "node:fs";
import { fmt } from "./stats.ts";

/** Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ: 100 on every common architecture). */
const TICKS_PER_SECOND = 100;

/** User and system CPU seconds of a /proc/<pid>/stat line: fields 14 and 15, counted after the parenthesised name. */
function cpuSecondsOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds process `pid` has used so far; NaN without /proc or that process. */
export function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    return cpuSecondsOfStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return Number.NaN;
  }
}

/**
 * How often the main thread of process `pid` (a Node server's event loop) has
 * so far been taken off a CPU while it could still run: Linux's involuntary
 * context switches. Here PostgreSQL and the load generator share the server's
 * cores: a statement written to a sleeping backend wakes it, and it may take
 * the server's core. Meanwhile the event loop waits, which its CPU time does
 * not show (and a V8 profile counts as time spent in the socket write). NaN
 * without /proc or that process.
 */
export function preemptionsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/^nonvoluntary_ctxt_switches:\s*(\d+)$/m.exec(status)?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU seconds used so far by the `postgres` processes alive on this machine
 * (the bench's embedded cluster and its backends); NaN when there are none
 * (a DATABASE_URL elsewhere). A backend that exits takes its time with it:
 * compare readings taken while the servers keep their pools open.
 */
export function postgresCpuSeconds(): number {
  let seconds = 0;
  let found = false;
  for (const pid of safeReaddir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    if (!stat.includes(" (postgres) ")) continue;
    found = true;
    seconds += cpuSecondsOfStat(stat);
  }
  return found ? seconds : Number.NaN;
}

function safeReaddir(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

/** The bench process's own CPU seconds (the load generator). */
export const ownCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** The columns of cpuByLoad's rows. */
export const CPU_COLUMNS = ["run", "server", "PostgreSQL", "load generator", "all", "server preempted"];

/**
 * CPU seconds each load of runLoadsInTurns costs, summed over its turns
 * (`around`): its server's (`serverPids[load]`), PostgreSQL's and the load
 * generator's, and how often the server's event loop was preempted. Where the
 * gap to a ceiling is: a ratio alone does not say.
 */
export function cpuByLoad(serverPids: (number | undefined)[]) {
  const parts = ["server", "postgres", "client"] as const;
  const counted = [...parts, "preempted"] as const;
  const totals = serverPids.map(() => ({ server: 0, postgres: 0, client: 0, preempted: 0 }));
  const read = (load: number) => ({
    server: cpuSecondsOf(serverPids[load]),
    postgres: postgresCpuSeconds(),
    client: ownCpuSeconds(),
    preempted: preemptionsOf(serverPids[load]),
  });
  return {
    around(load: number) {
      const before = read(load);
      return () => {
        const after = read(load);
        for (const part of counted) totals[load]![part] += after[part] - before[part];
      };
    },
    /** A table row: µs of CPU per request (of `requests` in all), by process and in all; the server's preemptions per request. */
    row(name: string, load: number, requests: number) {
      const perRequest = (seconds: number) => fmt((seconds * 1e6) / requests, 0);
      const total = totals[load]!;
      return [
        name,
        ...parts.map((part) => perRequest(total[part])),
        perRequest(parts.reduce((sum, part) => sum + total[part], 0)),
        fmt(total.preempted / requests, 2),
      ];
    },
  };
}

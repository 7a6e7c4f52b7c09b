/**
 * CPU time of the processes a benchmark compares, read from /proc (Linux):
 * where a request's cost goes (the server, PostgreSQL, the load generator)
 * when a ratio alone does not say. Elsewhere every reading is NaN, printed "-".
 */
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fmt, type LoadResult } from "./stats.ts";

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
  const byProcess = postgresCpuByProcess();
  return byProcess.size === 0
    ? Number.NaN
    : [...byProcess.values()].reduce((sum, seconds) => sum + seconds, 0);
}

/** The CPU seconds of each `postgres` process alive on this machine, by pid. */
export function postgresCpuByProcess(): Map<number, number> {
  const byProcess = new Map<number, number>();
  for (const pid of safeReaddir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    if (stat.includes(" (postgres) ")) byProcess.set(Number(pid), cpuSecondsOfStat(stat));
  }
  return byProcess;
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
export const CPU_COLUMNS = [
  "run",
  "server",
  "PostgreSQL",
  "load generator",
  "all",
  "server preempted",
  "machine used",
];

/** What a load cost the machine: CPU seconds per request, and the share of the machine's cores it kept busy. */
export interface MachineUse {
  cpuPerRequest: number;
  /** 0-1: CPU seconds over the load's seconds times the cores. */
  share: number;
}

/** A load's MachineUse, given the CPU seconds its processes used. */
export function machineUseOf(
  load: Pick<LoadResult, "requests" | "seconds">,
  cpuSeconds: number,
  cores = availableParallelism(),
): MachineUse {
  return { cpuPerRequest: cpuSeconds / load.requests, share: cpuSeconds / (load.seconds * cores) };
}

/**
 * A load's rate over a ceiling's, as the product of two parts: the ceiling's
 * CPU per request over the load's (what the load's work costs), and the
 * load's share of the machine over the ceiling's (how fully it kept the cores
 * busy: a server whose one thread holds every request up leaves them idle).
 * A rate is requests / seconds = share × cores / CPU per request, so the
 * product is the ratio of the rates, exactly.
 */
export function rateRatioParts(load: MachineUse, ceiling: MachineUse) {
  return { cpu: ceiling.cpuPerRequest / load.cpuPerRequest, use: load.share / ceiling.share };
}

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
  const allSeconds = (load: number) => parts.reduce((sum, part) => sum + totals[load]![part], 0);
  const use = (load: number, result: Pick<LoadResult, "requests" | "seconds">) =>
    machineUseOf(result, allSeconds(load));
  return {
    around(load: number) {
      const before = read(load);
      return () => {
        const after = read(load);
        for (const part of counted) totals[load]![part] += after[part] - before[part];
      };
    },
    /** What load `load`, whose result is `result`, cost the machine (all its processes together). */
    use,
    /**
     * A table row: µs of CPU per request by process and in all, the server's
     * preemptions per request, and the share of the machine's cores in use.
     */
    row(name: string, load: number, result: Pick<LoadResult, "requests" | "seconds">) {
      const perRequest = (seconds: number) => fmt((seconds * 1e6) / result.requests, 0);
      const total = totals[load]!;
      return [
        name,
        ...parts.map((part) => perRequest(total[part])),
        perRequest(allSeconds(load)),
        fmt(total.preempted / result.requests, 2),
        `${fmt(use(load, result).share * 100, 0)} %`,
      ];
    },
  };
}

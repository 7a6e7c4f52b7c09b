/**
 * What `npm run bench` builds its comparisons on: loads measured by turns
 * (each slice seen by `around`), and the CPU time of the processes it names,
 * read from /proc. Needs no server; the PostgreSQL reading needs the tests'
 * embedded cluster (or a local DATABASE_URL server), which global setup starts.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { availableParallelism } from "node:os";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import {
  cpuSecondsOf,
  machineUseOf,
  ownCpuSeconds,
  postgresCpuByProcess,
  postgresCpuSeconds,
  preemptionsOf,
  rateRatioParts,
} from "../bench/process-cpu.ts";
import { runLoadsInTurns } from "../bench/stats.ts";

/**
 * Keeps this thread busy until the process has used `ms` more of CPU time:
 * however long the other tests running beside it make that take (150 ms of
 * the clock gave it only 50 ms of CPU in a CI run).
 */
function burnCpu(ms: number): void {
  const start = process.cpuUsage();
  for (;;) {
    const { user, system } = process.cpuUsage(start);
    if ((user + system) / 1000 >= ms) return;
  }
}

describe("runLoadsInTurns", () => {
  it("measures the loads in alternate slices, each between its own around() and what that returns", async () => {
    const events: string[] = [];
    const load = (name: string) => async () => {
      events.push(name);
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const [first, second, third] = await runLoadsInTurns(1, 0.09, [load("a"), load("b"), load("c")], {
      turns: 3,
      warmUpSeconds: 0.01,
      afterWarmUp: () => (events.length = 0),
      around: (index) => {
        events.push(`start ${index}`);
        return () => events.push(`end ${index}`);
      },
    });
    const slices = events.filter((event) => event.startsWith("start") || event.startsWith("end"));
    const turn = ["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"];
    expect(slices).toEqual([...turn, ...turn, ...turn]);
    // Every request of a slice falls between its start and its end.
    let inside: string | null = null;
    for (const event of events) {
      if (event.startsWith("start")) inside = "abc"[Number(event.slice("start ".length))]!;
      else if (event.startsWith("end")) inside = null;
      else expect(event).toBe(inside);
    }
    expect(first.requests).toBe(events.filter((e) => e === "a").length);
    expect(second.requests).toBe(events.filter((e) => e === "b").length);
    expect(third.requests).toBe(events.filter((e) => e === "c").length);
  });
});

describe("a rate over a ceiling's, in two parts", () => {
  it("is the CPU per request and the share of the machine's cores kept busy", () => {
    // Two cores; the ceiling kept one busy, the load half of one, at the same CPU per request.
    const ceiling = machineUseOf({ requests: 1000, seconds: 2 }, 2, 2);
    const halfBusy = machineUseOf({ requests: 500, seconds: 2 }, 1, 2);
    expect(ceiling).toEqual({ cpuPerRequest: 0.002, share: 0.5 });
    expect(halfBusy).toEqual({ cpuPerRequest: 0.002, share: 0.25 });
    expect(rateRatioParts(halfBusy, ceiling)).toEqual({ cpu: 1, use: 0.5 });
    // As busy as the ceiling, at twice its CPU per request.
    const dearer = machineUseOf({ requests: 500, seconds: 2 }, 2, 2);
    expect(rateRatioParts(dearer, ceiling)).toEqual({ cpu: 0.5, use: 1 });
  });

  it("multiplies to the ratio of the rates", () => {
    // A bench run's figures (2026-11-29): the ledger and the bare ceiling, all their processes' CPU.
    const served = { requests: 29_614, seconds: 10.02 };
    const bare = { requests: 40_523, seconds: 10.01 };
    const parts = rateRatioParts(machineUseOf(served, 14.69, 2), machineUseOf(bare, 16.57, 2));
    const ratio = served.requests / served.seconds / (bare.requests / bare.seconds);
    expect(parts.cpu * parts.use).toBeCloseTo(ratio, 12);
    expect(parts.cpu).toBeCloseTo(0.824, 3);
    expect(parts.use).toBeCloseTo(0.886, 3);
  });
});

describe("process CPU readings", () => {
  it("reads a process's CPU time, which grows as it works", () => {
    const before = cpuSecondsOf(process.pid);
    const ownBefore = ownCpuSeconds();
    burnCpu(150);
    // In seconds: /proc counts in ticks of 10 ms.
    expect(cpuSecondsOf(process.pid) - before).toBeGreaterThanOrEqual(0.13);
    expect(cpuSecondsOf(process.pid) - before).toBeLessThan(1);
    expect(ownCpuSeconds() - ownBefore).toBeGreaterThanOrEqual(0.15);
    expect(ownCpuSeconds() - ownBefore).toBeLessThan(1);
  });

  it("is NaN for a process that does not exist", () => {
    expect(cpuSecondsOf(2 ** 22 + 1)).toBeNaN();
    expect(cpuSecondsOf(undefined)).toBeNaN();
    expect(preemptionsOf(2 ** 22 + 1)).toBeNaN();
    expect(preemptionsOf(undefined)).toBeNaN();
  });

  it("counts a process's preemptions, which grow while more processes want the cores than there are", async () => {
    // A shell's loop of builtins: no system call, a few MB however many cores there are, over by itself in seconds.
    const loop = "echo busy; i=0; while [ $i -lt 3000000 ]; do i=$((i + 1)); done";
    const busy = Array.from({ length: availableParallelism() + 1 }, () =>
      spawn("/bin/sh", ["-c", loop], { stdio: ["ignore", "pipe", "ignore"] }),
    );
    try {
      // Counted from the start of its loop: there it never gives the CPU up of its own accord.
      await once(busy[0]!.stdout!, "data");
      const pid = busy[0]!.pid;
      const before = preemptionsOf(pid);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(preemptionsOf(pid) - before).toBeGreaterThan(0);
    } finally {
      for (const child of busy) child.kill();
    }
  });

  // The tests' database runs here unless DATABASE_URL names another machine's.
  const adminUrl = inject("adminUrl");
  const local = ["127.0.0.1", "localhost", "[::1]"].includes(new URL(adminUrl).hostname);
  it.runIf(local)(
    "reads the CPU time of the PostgreSQL processes here, which grows as they work",
    async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // By process: another test file's backend that exits meanwhile takes its time out of a sum of all.
        const before = postgresCpuByProcess();
        await client.query("SELECT sum(i) FROM generate_series(1, 3000000) i");
        let grown = 0;
        for (const [pid, seconds] of postgresCpuByProcess()) grown += seconds - (before.get(pid) ?? seconds);
        expect(grown).toBeGreaterThanOrEqual(0.05);
        expect(postgresCpuSeconds()).toBeGreaterThan(0);
      } finally {
        await client.end();
      }
    },
  );
});

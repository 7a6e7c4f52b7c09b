/** Percentile (0-100) of a list of numbers, by nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
}

/** One call of a load: worker `worker`'s `i`-th. */
export type Work = (worker: number, i: number) => Promise<void>;

/**
 * Runs `work` in `concurrency` loops for `seconds`, recording each call's
 * latency. A call that throws counts as an error.
 */
export async function runLoad(concurrency: number, seconds: number, work: Work): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = 0; performance.now() < deadline; i += 1) {
        const t0 = performance.now();
        try {
          await work(worker, i);
          latenciesMs.push(performance.now() - t0);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  return { requests: latenciesMs.length, errors, seconds: (performance.now() - started) / 1000, latenciesMs };
}

/** Several loads' results as one: their requests, errors, seconds and latencies together. */
export function mergeLoadResults(runs: LoadResult[]): LoadResult {
  return {
    requests: runs.reduce((n, r) => n + r.requests, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    seconds: runs.reduce((n, r) => n + r.seconds, 0),
    latenciesMs: runs.flatMap((r) => r.latenciesMs),
  };
}

/**
 * Loads compared (two or more): each warmed up for `warmUpSeconds` (a fresh
 * server's first seconds run unoptimised code), then measured by turns,
 * `turns` slices of each, `seconds` in all per load. A drift of the machine's
 * speed during the run (other tenants, clock changes) then reaches them alike;
 * measured one after the other, it went into their ratio (0.54-0.92 between
 * runs of the same code here). `afterWarmUp` lets a load that records figures
 * of its own forget the warm-up's; `around(load)` is called before each of
 * the measured slices of load `load` (its index), and what it returns after
 * it (to read other figures, such as CPU time, per load).
 */
export async function runLoadsInTurns<const Loads extends readonly Work[]>(
  concurrency: number,
  seconds: number,
  loads: Loads,
  {
    turns = 5,
    warmUpSeconds = 2,
    afterWarmUp = () => {},
    around = () => () => {},
  }: {
    turns?: number;
    warmUpSeconds?: number;
    afterWarmUp?: () => void;
    around?: (load: number) => () => void;
  } = {},
): Promise<{ -readonly [K in keyof Loads]: LoadResult }> {
  for (const work of loads) await runLoad(concurrency, warmUpSeconds, work);
  afterWarmUp();
  const slices = loads.map((): LoadResult[] => []);
  for (let turn = 0; turn < turns; turn += 1) {
    for (const [i, work] of loads.entries()) {
      const after = around(i);
      slices[i]!.push(await runLoad(concurrency, seconds / turns, work));
      after();
    }
  }
  return slices.map(mergeLoadResults) as { -readonly [K in keyof Loads]: LoadResult };
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

/** Prints rows as an aligned table. */
export function printTable(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(
    `\n${title}\n${line(header)}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|\n${cells.slice(1).map(line).join("\n")}`,
  );
}

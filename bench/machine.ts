import { readFileSync } from "node:fs";
import os from "node:os";

/**
 * The line that heads the bench's output. Virtual machines here name their CPU
 * only "AMD EPYC" or "Intel Xeon", and generations of either differ in what a
 * commit costs PostgreSQL against what JavaScript costs Node, which moves the
 * posting ratio (docs/benchmarks.md, "Posting"): so the CPU's family and model
 * numbers from /proc/cpuinfo are printed too, where Linux gives them.
 */
export function describeMachine(): string {
  const cpus = os.cpus();
  const generation = cpuFamilyAndModel();
  const cpu = `${cpus[0]?.model ?? "cpu"}${generation ? ` (${generation})` : ""}`;
  return `Machine: ${cpus.length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

function cpuFamilyAndModel(): string | undefined {
  let cpuinfo: string;
  try {
    cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  } catch {
    return undefined;
  }
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(\\d+)$`, "m").exec(cpuinfo)?.[1];
  const family = field("cpu family");
  const model = field("model");
  return family && model ? `family ${family}, model ${model}` : undefined;
}

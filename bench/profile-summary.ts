/**
 * `npx tsx bench/profile-summary.ts FILE.cpuprofile [requests] [--last SECONDS]`:
 * where a server's time went, from a `--cpu-prof` profile (BENCH_CPU_PROFILE_DIR).
 * Self time by package and by function, and inclusive time of the heaviest
 * frames; with the number of requests served, busy ms per request too.
 * V8 samples the thread by the clock: a sample taken while the thread waited
 * inside a system call, taken off the CPU by another process (PostgreSQL
 * woken by a socket write), counts as busy in that call (`writev`). The
 * server's CPU time is the bench's "CPU per request" table (/proc), with how
 * often it was preempted.
 * `--last` counts only the profile's last seconds: a load's own, without
 * the start-up's module loading and compiling before it.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const lastAt = args.indexOf("--last");
const lastSeconds = lastAt === -1 ? Infinity : Number(args.splice(lastAt, 2)[1]);
const [file, requestsArgument] = args;
if (!file || Number.isNaN(lastSeconds))
  throw new Error("usage: profile-summary FILE.cpuprofile [requests] [--last SECONDS]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const requests = Number(requestsArgument ?? 0);

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

const sampledUs = profile.timeDeltas.reduce((a, b) => a + b, 0);
const fromUs = sampledUs - lastSeconds * 1e6;
const selfUs = new Map<number, number>();
let atUs = 0;
profile.samples.forEach((id, i) => {
  atUs += profile.timeDeltas[i] ?? 0;
  if (atUs >= fromUs) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

/** A frame's package: node_modules/<name>, packages/<name>, apps/<name>, node's internals, or V8's own entries. */
function packageOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  const workspace = /\/(packages|apps)\/([^/]+)\//.exec(url);
  if (workspace) return `${workspace[1]}/${workspace[2]}`;
  if (url.startsWith("node:")) return "node:internal";
  return url.replace(/^file:\/\//, "");
}
const frameName = (node: ProfileNode) =>
  `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/(packages|apps)\//, "$1/")}:${node.callFrame.lineNumber + 1}`;

const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idleUs = [...selfUs]
  .filter(([id]) => byId.get(id)!.callFrame.functionName === "(idle)")
  .reduce((a, [, us]) => a + us, 0);
const busyUs = totalUs - idleUs;

const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
const selfByPackage = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const inclusiveByFunction = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  if (node.callFrame.functionName === "(idle)") continue;
  add(selfByPackage, packageOf(node), us);
  add(selfByFunction, frameName(node), us);
  // Inclusive: each distinct frame on the sample's stack once (recursion counted once).
  const seen = new Set<string>();
  for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
    const name = frameName(byId.get(current)!);
    if (!seen.has(name)) add(inclusiveByFunction, name, us);
    seen.add(name);
  }
}

const ms = (us: number) => (us / 1000).toFixed(0).padStart(7);
const share = (us: number) => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%`;
const perRequest = (us: number) =>
  requests ? `${(us / 1000 / requests).toFixed(3).padStart(7)} ms/req` : "";
function print(title: string, map: Map<string, number>, limit: number) {
  console.log(`\n${title}`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, limit))
    console.log(`${ms(us)} ms ${share(us)} ${perRequest(us)}  ${name}`);
}

console.log(
  `${file}: ${ms(totalUs).trim()} ms profiled, ${ms(busyUs).trim()} ms busy (${((100 * busyUs) / totalUs).toFixed(0)}%)${requests ? `, ${(busyUs / 1000 / requests).toFixed(3)} ms busy per request over ${requests}` : ""}`,
);
print("Self time by package", selfByPackage, 25);
print("Self time by function", selfByFunction, 30);
print("Inclusive time by function", inclusiveByFunction, 60);

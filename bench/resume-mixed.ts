import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadLocalIssuer } from "@app/auth";
import { env } from "../scripts/env.ts";
import { nodeHttpClient } from "./node-http-load.ts";
import { seedResume } from "./resume.ts";
import { cpuByLoad, CPU_COLUMNS } from "./process-cpu.ts";
import { fmt, percentile, printTable, runLoad, runLoadsInTurns, type LoadResult } from "./stats.ts";

const CONNECTIONS = env.BENCH_RESUME_CONNECTIONS;
const PEOPLE = 20;

/**
 * A node:http server in a process of its own answering every request with
 * `body` under the same headers as the web app's answer: the ceiling of a
 * server that does nothing but send those bytes.
 */
async function startBareServer(body: Buffer, headers: Record<string, string>) {
  const directory = await mkdtemp(path.join(tmpdir(), "bare-"));
  const file = path.join(directory, "body");
  await writeFile(file, body);
  const script = `
    const http = require("node:http");
    const body = require("node:fs").readFileSync(${JSON.stringify(file)});
    const headers = ${JSON.stringify(headers)};
    const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
    server.keepAliveTimeout = 65000;
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  return {
    url: `http://127.0.0.1:${line.toString().trim()}`,
    pid: child.pid,
    async stop() {
      child.kill();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

const rate = (result: LoadResult) => result.requests / result.seconds;

/**
 * The resume service under reads and writes, each figure against one of the same run:
 * - GET /me/resume (profile + 6 × 20) against a bare node:http server sending the same bytes,
 *   both warmed up, then by turns (runLoadsInTurns);
 * - 20 people with small resumes: reads alone against 90 % GET /me/resume and 10 % PUT /me/profile
 *   (reads and writes apart), by turns; writes against GET /me/profile at the same concurrency;
 * - one connection: PUT /me/profile against GET /me/profile, one of each in turn;
 * and the CPU per request of each process during the loads compared by turns.
 */
export async function benchResumeMixed(
  startWeb: (extraEnv?: Record<string, string>) => Promise<string>,
  pidOf: (url: string) => number | undefined,
  seconds: number,
) {
  const baseUrl = await startWeb();
  const webPid = pidOf(baseUrl);
  const issuer = await loadLocalIssuer({ dataDir: env.DATA_DIR });
  const bearer = async (user: string) => `Bearer ${await issuer.mintToken(user, { ttlSeconds: 3600 })}`;

  const reader = await bearer("bench-mixed-reader");
  await seedResume(baseUrl, reader);
  const answer = await fetch(`${baseUrl}/me/resume`, { headers: { authorization: reader } });
  const body = Buffer.from(await answer.arrayBuffer());
  const headers = Object.fromEntries(
    [...answer.headers].filter(([name]) => !["date", "connection", "keep-alive"].includes(name)),
  );
  const bare = await startBareServer(body, headers);

  const people = await Promise.all(Array.from({ length: PEOPLE }, (_, i) => bearer(`bench-mixed-${i}`)));
  for (const [i, person] of people.entries()) {
    const response = await fetch(`${baseUrl}/me/profile`, {
      method: "PUT",
      headers: { authorization: person, "content-type": "application/json" },
      body: JSON.stringify({ name: `Person ${i}`, headline: "Engineer" }),
    });
    if (response.status !== 200) throw new Error(`PUT /me/profile: ${response.status}`);
  }
  const profileBody = (worker: number, i: number) =>
    JSON.stringify({ name: `Person ${worker % PEOPLE}`, headline: `Engineer ${i}` });

  const client = nodeHttpClient(CONNECTIONS);
  try {
    const wholeCpu = cpuByLoad([webPid, bare.pid]);
    const [whole, ceiling] = await runLoadsInTurns(
      CONNECTIONS,
      seconds,
      [
        () => client.request(`${baseUrl}/me/resume`, { authorization: reader }),
        () => client.request(`${bare.url}/me/resume`, {}),
      ],
      { around: wholeCpu.around },
    );

    const profileReads = await runLoad(CONNECTIONS, seconds, (worker) =>
      client.request(`${baseUrl}/me/profile`, { authorization: people[worker % PEOPLE]! }),
    );
    const mixedReads: number[] = [];
    const mixedWrites: number[] = [];
    const mixCpu = cpuByLoad([webPid, webPid]);
    const [reads, mixed] = await runLoadsInTurns(
      CONNECTIONS,
      seconds,
      [
        (worker) => client.request(`${baseUrl}/me/resume`, { authorization: people[worker % PEOPLE]! }),
        async (worker, i) => {
          const authorization = people[worker % PEOPLE]!;
          const started = performance.now();
          if (i % 10 === 9) {
            await client.request(
              `${baseUrl}/me/profile`,
              { authorization, "content-type": "application/json" },
              "PUT",
              profileBody(worker, i),
            );
            mixedWrites.push(performance.now() - started);
          } else {
            await client.request(`${baseUrl}/me/resume`, { authorization });
            mixedReads.push(performance.now() - started);
          }
        },
      ],
      { afterWarmUp: () => ((mixedReads.length = 0), (mixedWrites.length = 0)), around: mixCpu.around },
    );

    // One connection, a GET and a PUT in turn: each pair sees the machine alike.
    const oneGet: number[] = [];
    const onePut: number[] = [];
    const oneConnection = await runLoad(1, seconds, async (_, i) => {
      let started = performance.now();
      await client.request(`${baseUrl}/me/profile`, { authorization: people[0]! });
      oneGet.push(performance.now() - started);
      started = performance.now();
      await client.request(
        `${baseUrl}/me/profile`,
        { authorization: people[0]!, "content-type": "application/json" },
        "PUT",
        profileBody(0, i),
      );
      onePut.push(performance.now() - started);
    });

    const p = (values: number[], q: number) => percentile(values, q);
    printTable(
      `Resume service, reads and writes (${CONNECTIONS} connections, ${seconds} s each; node:http client)`,
      ["figure", "measured", "against", "ratio", "target"],
      [
        [
          `GET /me/resume (${fmt(body.length / 1024, 1)} KB) req/s, vs a bare server`,
          fmt(rate(whole), 0),
          fmt(rate(ceiling), 0),
          fmt(rate(whole) / rate(ceiling), 2),
          ">= 0.85",
        ],
        [
          "GET /me/resume p99 ms, vs the bare server's",
          fmt(p(whole.latenciesMs, 99)),
          fmt(p(ceiling.latenciesMs, 99)),
          fmt(p(whole.latenciesMs, 99) / p(ceiling.latenciesMs, 99), 2),
          "<= 1.5",
        ],
        [
          `${PEOPLE} people, 10 % writes: req/s, vs reads alone`,
          fmt(rate(mixed), 0),
          fmt(rate(reads), 0),
          fmt(rate(mixed) / rate(reads), 2),
          ">= 0.5",
        ],
        [
          "  reads p99 ms in the mix, vs reads alone",
          fmt(p(mixedReads, 99)),
          fmt(p(reads.latenciesMs, 99)),
          fmt(p(mixedReads, 99) / p(reads.latenciesMs, 99), 2),
          "<= 1.5",
        ],
        [
          "  writes p50 ms in the mix, vs GET /me/profile p50",
          fmt(p(mixedWrites, 50)),
          fmt(p(profileReads.latenciesMs, 50)),
          fmt(p(mixedWrites, 50) / p(profileReads.latenciesMs, 50), 2),
          "<= 2",
        ],
        [
          "One connection: PUT /me/profile p50 ms, vs GET",
          fmt(p(onePut, 50), 2),
          fmt(p(oneGet, 50), 2),
          `+${fmt(p(onePut, 50) - p(oneGet, 50), 2)} ms`,
          "<= +1 ms",
        ],
      ],
    );
    printTable("CPU per request (µs), by process, during the same turns", CPU_COLUMNS, [
      wholeCpu.row("GET /me/resume: the web app", 0, whole),
      wholeCpu.row("GET /me/resume: the bare server", 1, ceiling),
      mixCpu.row(`${PEOPLE} people, reads alone: the web app`, 0, reads),
      mixCpu.row(`${PEOPLE} people, 10 % writes: the web app`, 1, mixed),
    ]);
    const failed = [whole, ceiling, reads, profileReads, mixed, oneConnection].reduce(
      (n, r) => n + r.errors,
      0,
    );
    if (failed) console.log(`failed requests: ${failed}`);
  } finally {
    client.close();
    await bare.stop();
  }
}

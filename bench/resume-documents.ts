import { existsSync } from "node:fs";
import path from "node:path";
import { loadLocalIssuer } from "@app/auth";
import { env, repoRoot } from "../scripts/env.ts";
import { buildWeb } from "../scripts/processes.ts";
import { nodeHttpLoad } from "./node-http-load.ts";
import { load, seedResume } from "./resume.ts";
import { fmt, percentile, printTable, runLoad } from "./stats.ts";

const CONNECTIONS = env.BENCH_RESUME_CONNECTIONS;
const PDF_CLIENTS = 4;
const RENDERS = 40;

/**
 * The resume's PDF and Word files (profile + 6 × 20 entries):
 * - each made anew (a server that keeps no answers), one request at a time: p50 and p99;
 * - GET /me/resume's p99 at BENCH_RESUME_CONNECTIONS connections alone, then while 4 clients
 *   fetch PDFs made anew, on a server with one document worker and on one that renders on the
 *   request's thread (DOCUMENT_WORKERS=0): a render must not hold up the other requests;
 * - kept PDF answers against kept JSON answers, in requests a second (read by node:http:
 *   autocannon's parser is slower on binary bodies than the server).
 */
export async function benchResumeDocuments(
  startWeb: (extraEnv?: Record<string, string>) => Promise<string>,
  seconds: number,
) {
  if (!existsSync(path.join(repoRoot, "apps", "web", ".next", "BUILD_ID"))) await buildWeb();
  const cachedUrl = await startWeb();
  const workerUrl = await startWeb({ RESUME_ANSWER_CACHE_BYTES: "0" });
  const inlineUrl = await startWeb({ RESUME_ANSWER_CACHE_BYTES: "0", DOCUMENT_WORKERS: "0" });
  const issuer = await loadLocalIssuer({ dataDir: env.DATA_DIR });
  const authorization = `Bearer ${await issuer.mintToken("bench-documents", { ttlSeconds: 3600 })}`;
  await seedResume(cachedUrl, authorization);

  const fetchDocument = async (url: string) => {
    const response = await fetch(url, { headers: { authorization } });
    const body = await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    return body.byteLength;
  };

  const renders: (string | number)[][] = [];
  for (const format of ["pdf", "docx"]) {
    const url = `${workerUrl}/me/resume?format=${format}`;
    const size = await fetchDocument(url);
    const times: number[] = [];
    for (let i = 0; i < RENDERS; i += 1) {
      const started = performance.now();
      await fetchDocument(url);
      times.push(performance.now() - started);
    }
    renders.push([
      format,
      `${fmt(size / 1024, 0)} KB`,
      fmt(percentile(times, 50)),
      fmt(percentile(times, 99)),
    ]);
  }
  printTable(
    `Resume documents made anew, one request at a time (${RENDERS} each)`,
    ["format", "size", "p50 ms", "p99 ms"],
    renders,
  );

  const readP99 = async (baseUrl: string) =>
    (
      await load({
        url: `${baseUrl}/me/resume`,
        headers: { authorization },
        connections: CONNECTIONS,
        duration: seconds,
      })
    ).latency.p99;
  const alongside: (string | number)[][] = [];
  for (const [name, baseUrl] of [
    ["1 document worker", workerUrl],
    ["on the request's thread", inlineUrl],
  ] as const) {
    const alone = await readP99(baseUrl);
    const pdfs = runLoad(PDF_CLIENTS, seconds, () =>
      fetchDocument(`${baseUrl}/me/resume?format=pdf`).then(() => {}),
    );
    const withPdfs = await readP99(baseUrl);
    const made = await pdfs;
    alongside.push([name, alone, withPdfs, fmt(withPdfs / alone, 2), fmt(made.requests / made.seconds, 1)]);
  }
  printTable(
    `GET /me/resume (nothing kept) at ${CONNECTIONS} connections, alone and while ${PDF_CLIENTS} clients fetch PDFs (${seconds} s each)`,
    ["documents made", "p99 alone ms", `p99 with PDFs ms`, "ratio (target <= 2)", "PDFs/s"],
    alongside,
  );

  const rate = async (format: string) => {
    const result = await nodeHttpLoad(
      `${cachedUrl}/me/resume?format=${format}`,
      { authorization },
      CONNECTIONS,
      seconds,
    );
    return result.requests / result.seconds;
  };
  const json = await rate("json");
  const pdf = await rate("pdf");
  printTable(
    `Kept answers, read by node:http (${CONNECTIONS} connections, ${seconds} s each)`,
    ["format", "req/s", "ratio to JSON (PDF target >= 0.8)"],
    [
      ["json", fmt(json, 0), "1.00"],
      ["pdf", fmt(pdf, 0), fmt(pdf / json, 2)],
    ],
  );
}

import { existsSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { loadLocalIssuer } from "@app/auth";
import { env, repoRoot } from "../scripts/env.ts";
import { buildWeb } from "../scripts/processes.ts";
import { fmt, printTable } from "./stats.ts";

const CONNECTIONS = env.BENCH_RESUME_CONNECTIONS;

/** A JSON request as `authorization`: its JSON answer; a status of 300 or more fails, naming the request. */
async function sendJson<T>(
  baseUrl: string,
  authorization: string,
  method: string,
  route: string,
  body: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Profile + 6 × 20 entries, written through the API as a person would. */
export async function seedResume(baseUrl: string, authorization: string) {
  const send = (method: string, route: string, body: unknown) =>
    sendJson(baseUrl, authorization, method, route, body);
  await send("PUT", "/me/profile", {
    name: "Bench Person",
    headline: "Engineer",
    summary: "A summary sentence. ".repeat(20),
    links: { github: "https://github.com/bench" },
  });
  const bodies: Record<string, (i: number) => unknown> = {
    experience: (i) => ({
      organization: `Org ${i}`,
      title: "Engineer",
      start_date: `20${10 + (i % 10)}-0${1 + (i % 9)}-01`,
      responsibilities: ["Built things", "Ran things"],
      accomplishments: ["Shipped"],
    }),
    education: (i) => ({
      institution: `University ${i}`,
      degree: "BSc",
      start_date: `20${10 + (i % 10)}-09-01`,
    }),
    skills: (i) => ({ name: `Skill ${i}`, category: "tool", years_experience: i % 10 }),
    certifications: (i) => ({ name: `Cert ${i}`, issuing_organization: "Org", issue_date: "2020-01-01" }),
    hobbies: (i) => ({ name: `Hobby ${i}`, description: "Weekends" }),
    goals: (i) => ({ description: `Goal ${i}`, category: "career" }),
  };
  for (const [collection, make] of Object.entries(bodies)) {
    for (let i = 0; i < 20; i += 1) await send("POST", `/me/${collection}`, make(i));
  }
}

/** One experience entry for each of `authorizations`: each person's entry path, for edits. */
async function entryPerPerson(baseUrl: string, authorizations: string[]): Promise<string[]> {
  const entry = { organization: "Bench", title: "Engineer", start_date: "2015-01-01" };
  return Promise.all(
    authorizations.map(async (authorization) => {
      const { id } = await sendJson<{ id: string }>(baseUrl, authorization, "POST", "/me/experience", entry);
      return `/me/experience/${id}`;
    }),
  );
}

/** A version showing every entry and a share link to it: the path of its public page. */
async function shareWholeResume(baseUrl: string, authorization: string): Promise<string> {
  const post = (route: string, body: unknown) =>
    sendJson<{ id: string; url: string }>(baseUrl, authorization, "POST", route, body);
  const version = await post("/me/versions", { name: "Everything" });
  return new URL((await post(`/me/versions/${version.id}/links`, {})).url).pathname;
}

export function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * GET /me/resume, GET /me/experience, POST /me/skills and PUT /me/experience/{id} with
 * BENCH_RESUME_CONNECTIONS connections (32 by default) for a fixed time against the production build of the web app.
 */
export async function benchResume(
  startWeb: (extraEnv?: Record<string, string>) => Promise<string>,
  seconds: number,
) {
  if (!existsSync(path.join(repoRoot, "apps", "web", ".next", "BUILD_ID"))) await buildWeb();
  const baseUrl = await startWeb();
  const uncachedUrl = await startWeb({ RESUME_ANSWER_CACHE_BYTES: "0" });
  const issuer = await loadLocalIssuer({ dataDir: env.DATA_DIR });
  const authorization = `Bearer ${await issuer.mintToken("bench-reader", { ttlSeconds: 3600 })}`;
  await seedResume(baseUrl, authorization);
  const shared = await shareWholeResume(baseUrl, authorization);
  // Creates are spread over many people, so the 200-entry cap is never what is measured.
  const writers = await Promise.all(
    Array.from({ length: 1000 }, (_, i) => issuer.mintToken(`bench-writer-${i}`, { ttlSeconds: 3600 })),
  );
  let next = 0;
  // Edits are spread over people too: each person's edits wait on their resume version's row.
  const editors = writers.slice(0, 100).map((token) => `Bearer ${token}`);
  const editedEntries = await entryPerPerson(baseUrl, editors);
  let nextEdit = 0;

  const runs: [string, autocannon.Options][] = [
    ["GET /me/resume (profile + 6 × 20)", { url: `${baseUrl}/me/resume`, headers: { authorization } }],
    [
      // A second server that keeps no answers: every request builds the
      // resume anew, as the first read after a write does.
      "GET /me/resume, nothing kept (RESUME_ANSWER_CACHE_BYTES=0)",
      { url: `${uncachedUrl}/me/resume`, headers: { authorization } },
    ],
    [
      // The same content, public: a version showing every entry, through its share link.
      "GET /r/{slug} (a version of it all)",
      { url: `${baseUrl}${shared}` },
    ],
    ["GET /me/experience (20 entries)", { url: `${baseUrl}/me/experience`, headers: { authorization } }],
    [
      "POST /me/skills",
      {
        url: `${baseUrl}/me/skills`,
        requests: [
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ name: "Benchmarking", category: "tool", proficiency: "expert" }),
            setupRequest: (request) => ({
              ...request,
              headers: { ...request.headers, authorization: `Bearer ${writers[next++ % writers.length]}` },
            }),
          },
        ],
      },
    ],
    [
      "PUT /me/experience/{id} (100 people's entries in turn)",
      {
        url: baseUrl,
        requests: [
          {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              organization: "Bench",
              title: "Staff engineer",
              start_date: "2015-01-01",
            }),
            setupRequest: (request) => {
              const person = nextEdit++ % editors.length;
              return {
                ...request,
                path: editedEntries[person]!,
                headers: { ...request.headers, authorization: editors[person]! },
              };
            },
          },
        ],
      },
    ],
  ];
  // A fresh server's first seconds run unoptimised code: whichever read came first paid for them (its p99 above the later ones').
  for (const [, options] of runs.filter(([name]) => name.startsWith("GET")))
    await load({ ...options, connections: CONNECTIONS, duration: 2 });
  const rows: (string | number)[][] = [];
  for (const [name, options] of runs) {
    const result = await load({ ...options, connections: CONNECTIONS, duration: seconds });
    rows.push([
      name,
      fmt(result.requests.average, 0),
      result.latency.p50,
      result.latency.p99,
      result.non2xx + result.errors + result.timeouts,
    ]);
  }
  printTable(
    `Resume service (${CONNECTIONS} connections, ${seconds} s each)`,
    ["route", "req/s", "p50 ms", "p99 ms", "failed"],
    rows,
  );
  console.log(`GET /me/resume p99 target: <= 25 ms`);
  const [whole, page] = [rows[0]!, rows[2]!];
  console.log(
    `GET /r/{slug} target: >= 0.8 x GET /me/resume's rate (${fmt(Number(page[1]) / Number(whole[1]), 2)} x), p99 <= 25 ms (${page[3]} ms)`,
  );
}

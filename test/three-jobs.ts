import type { HttpClient } from "./http-client.ts";

/** Three jobs, oldest first, whose names no other text of a resume holds: tests pick two of them. */
export const THREE_JOBS = [
  { organization: "Alpha Corp", title: "Engineer", start_date: "2015-01-01" },
  { organization: "Beta Labs", title: "Engineer", start_date: "2018-01-01" },
  { organization: "Gamma Inc", title: "Engineer", start_date: "2021-01-01" },
] as const;

/** Adds THREE_JOBS to the resume `api` signs in to; their ids, in the same order. */
export async function addThreeJobs(api: HttpClient): Promise<string[]> {
  const ids: string[] = [];
  for (const job of THREE_JOBS) ids.push((await api.post<{ id: string }>("/me/experience", job)).body.id);
  return ids;
}

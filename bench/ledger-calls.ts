import { BENCH_KEY } from "./environment.ts";
import { createSignedHttpClient } from "./signed-http-client.ts";
import { fmt, percentile, type LoadResult } from "./stats.ts";

/** Clients of every ledger load run. */
export const CLIENTS = 16;

export type Ledger = ReturnType<typeof ledger>;

export function ledger(ledgerUrl: string) {
  return createSignedHttpClient(ledgerUrl, BENCH_KEY, { region: "us-east-1" });
}

/** A signed call that must succeed; its JSON answer. */
export async function call(client: Ledger, path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await client.request(init.method ?? "GET", path, init.body);
  if (response.status >= 300) throw new Error(`${response.status} ${response.body}`);
  return JSON.parse(response.body) as Record<string, unknown>;
}

export async function createAccount(
  client: Ledger,
  name: string,
  type: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const account = await call(client, "/accounts", {
    method: "POST",
    body: { name, type, currency: "USD", ...extra },
  });
  return account.id as string;
}

/** A table row of a load run: transactions (`perRequest` per request), errors, rate, latency per request. */
export const row = (name: string, r: LoadResult, perRequest = 1) => [
  name,
  r.requests * perRequest,
  r.errors,
  fmt((r.requests * perRequest) / r.seconds, 0),
  fmt(percentile(r.latenciesMs, 50)),
  fmt(percentile(r.latenciesMs, 99)),
];

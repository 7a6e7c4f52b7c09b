import http from "node:http";
import { runLoad, type LoadResult } from "./stats.ts";

/**
 * Requests on `connections` keep-alive connections, read by node:http's own
 * parser; each resolves when its answer has been read, and fails unless it
 * was a 2xx. autocannon's JavaScript parser costs more on some bodies than on
 * others (binary ones: a bare node:http server's PDF was answered at 0.28 of
 * its JSON rate through it, at 1.3 through node:http), so comparisons of
 * formats use this client.
 */
export function nodeHttpClient(connections: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const request = (url: string, headers: Record<string, string>, method = "GET", body?: string) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(url, { method, agent, headers }, (response) => {
        response.resume();
        response.on("end", () =>
          (response.statusCode ?? 500) < 300
            ? resolve()
            : reject(new Error(`${method} ${url}: ${response.statusCode}`)),
        );
        response.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  return { request, close: () => agent.destroy() };
}

/** GETs of `url` on `connections` connections for `seconds`. */
export async function nodeHttpLoad(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const client = nodeHttpClient(connections);
  try {
    return await runLoad(connections, seconds, () => client.request(url, headers));
  } finally {
    client.close();
  }
}

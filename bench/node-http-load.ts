import http from "node:http";
import { runLoad, type LoadResult } from "./stats.ts";

/**
 * GETs of `url` on `connections` keep-alive connections for `seconds`, read
 * by node:http's own parser. autocannon's JavaScript parser costs more on
 * some bodies than on others (binary ones: a bare node:http server's PDF was
 * answered at 0.28 of its JSON rate through it, at 1.3 through node:http), so
 * comparisons of formats use this client.
 */
export async function nodeHttpLoad(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const get = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent, headers }, (response) => {
          response.resume();
          response.on("end", () =>
            response.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${response.statusCode}`)),
          );
          response.on("error", reject);
        })
        .on("error", reject);
    });
  try {
    return await runLoad(connections, seconds, get);
  } finally {
    agent.destroy();
  }
}

import http from "node:http";
import { randomInt } from "node:crypto";

/**
 * An address of the loopback network (127.x.y.z, which Linux routes to this
 * machine whole) that no other test of this run is likely to use: a client of
 * its own for per-address limits, whose counts outlive a test in the database.
 */
export const freshLoopbackAddress = () =>
  `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** A GET of `url` sent from `localAddress`, as a client at that address would send it. */
export function getFromAddress(
  url: string,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; retryAfter: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { localAddress, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          retryAfter: res.headers["retry-after"],
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.on("error", reject);
  });
}

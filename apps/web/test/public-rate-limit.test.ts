/**
 * The public pages' rate limit (PUBLIC_RATE_LIMIT_PER_MINUTE), per client
 * address and across two instances; X-Forwarded-For believed only from
 * TRUSTED_PROXIES. Requests leave from addresses of their own on the loopback
 * network (127.x.y.z), so each test is a client no other has been.
 */
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshLoopbackAddress, getFromAddress } from "../../../test/from-address.ts";
import { startResumeApi } from "../../../test/resume-api.ts";
import { startTcpProxy } from "../../../test/tcp-proxy.ts";
import type { WebServer } from "../../../test/web-server.ts";

const LIMIT = 5;
let direct: WebServer[] = [];
let behindProxy: WebServer[] = [];

beforeAll(async () => {
  direct = await Promise.all([0, 1].map(() => startResumeApi({ publicRateLimitPerMinute: LIMIT })));
  behindProxy = await Promise.all(
    [0, 1].map(() =>
      startResumeApi({ publicRateLimitPerMinute: LIMIT, trustedProxies: ["127.0.0.0/8", "::1"] }),
    ),
  );
});

afterAll(() => Promise.all([...direct, ...behindProxy].map((server) => server.stop())));

/** An address of a network for benchmarks (198.18.0.0/15), standing for a client behind a proxy. */
const freshClient = () => `198.18.${randomInt(0, 256)}.${randomInt(1, 255)}`;
/** A /64 of the documentation prefix (2001:db8::/32) no test has used, for an IPv6 client behind a proxy. */
const freshIpv6Block = () =>
  `2001:db8:${randomInt(0, 65536).toString(16)}:${randomInt(0, 65536).toString(16)}`;

/** GET of an unknown link (404: it counts like any page) from `localAddress`. */
const getFrom = (server: WebServer, localAddress: string, headers: Record<string, string> = {}) =>
  getFromAddress(`${server.url}/r/${"B".repeat(32)}`, localAddress, headers);

/** `count` requests, alternating the two instances, one after another. */
async function statusesOf(
  servers: WebServer[],
  count: number,
  send: (server: WebServer, i: number) => ReturnType<typeof getFrom>,
) {
  const answers = [];
  for (let i = 0; i < count; i += 1) answers.push(await send(servers[i % 2]!, i));
  return answers;
}

describe("the public pages' rate limit", () => {
  it(`allows ${LIMIT} requests a minute from one address over both instances, then 429 with Retry-After`, async () => {
    const address = freshLoopbackAddress();
    const answers = await statusesOf(direct, LIMIT + 3, (server) => getFrom(server, address));
    expect(answers.slice(0, LIMIT).map((a) => a.status)).toEqual(Array(LIMIT).fill(404));
    for (const answer of answers.slice(LIMIT)) {
      expect(answer.status).toBe(429);
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
    }
    // Another address is not held back.
    expect((await getFrom(direct[0]!, freshLoopbackAddress())).status).toBe(404);
    expect((await getFrom(direct[1]!, freshLoopbackAddress())).status).toBe(404);
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    const address = freshLoopbackAddress();
    const answers = await statusesOf(direct, LIMIT + 3, (server) =>
      getFrom(server, address, { "x-forwarded-for": freshClient() }),
    );
    expect(answers.filter((a) => a.status === 404)).toHaveLength(LIMIT);
    expect(answers.slice(LIMIT).map((a) => a.status)).toEqual([429, 429, 429]);
  });

  it("behind a trusted proxy, counts the right-most untrusted address of X-Forwarded-For", async () => {
    const proxy = freshLoopbackAddress();
    const client = freshClient();
    // What the client wrote itself (left of its own address) counts for nothing.
    const sent = await statusesOf(behindProxy, LIMIT + 2, (server) =>
      getFrom(server, proxy, { "x-forwarded-for": `${freshClient()}, ${client}, 127.0.0.1` }),
    );
    expect(sent.map((a) => a.status)).toEqual([...Array(LIMIT).fill(404), 429, 429]);
    // The same proxy forwarding another client: that client has its own count.
    expect((await getFrom(behindProxy[0]!, proxy, { "x-forwarded-for": freshClient() })).status).toBe(404);
  });

  it("answers a client known to be past its limit without a lookup: 429 while the database does not answer", async () => {
    // Counted and looked up side by side, a refused request still cost a lookup of its link, and
    // waited for it: with the database hung, 503 after the statement timeout instead of the 429.
    const { hostname, port } = new URL(inject("databaseUrl"));
    const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    const server = await startResumeApi({
      publicRateLimitPerMinute: LIMIT,
      databaseUrl: proxy.via(inject("databaseUrl")),
    });
    try {
      const address = freshLoopbackAddress();
      const answers = await statusesOf([server, server], LIMIT + 1, (s) => getFrom(s, address));
      expect(answers.map((a) => a.status)).toEqual([...Array(LIMIT).fill(404), 429]);
      proxy.freeze();
      const refused = await getFrom(server, address);
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await proxy.close();
      await server.stop();
    }
  });

  it("counts an IPv6 client by its /64: another address of the same block each time is one client", async () => {
    const proxy = freshLoopbackAddress();
    const block = freshIpv6Block();
    const sent = await statusesOf(behindProxy, LIMIT + 2, (server, i) =>
      getFrom(server, proxy, { "x-forwarded-for": `${block}:${i.toString(16)}::${i + 1}` }),
    );
    expect(sent.map((a) => a.status)).toEqual([...Array(LIMIT).fill(404), 429, 429]);
    expect(
      (await getFrom(behindProxy[0]!, proxy, { "x-forwarded-for": `${freshIpv6Block()}::1` })).status,
    ).toBe(404);
  });
});

import net from "node:net";

/**
 * Ports for the servers tests start. Asking the system for a free port and
 * closing the probe leaves a window in which another test worker's probe may
 * get the same port (seen in CI: a web server failed with EADDRINUSE, and its
 * test talked to another test's server). So each Vitest worker takes ports
 * from a range of its own, below Linux's ephemeral range (32768-60999), where
 * outgoing connections do not land either. TEST_PORT_BASE moves the ranges, so two
 * checkouts can run their tests side by side (one at 20000, the other at 8000).
 */
const WORKER = Number(process.env.VITEST_POOL_ID ?? 0) % 12;
let next = Number(process.env.TEST_PORT_BASE ?? 20_000) + WORKER * 1_000;

/** A TCP port on 127.0.0.1 that is free now and that no other test worker hands out. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = next++;
    if (await isFree(port)) return port;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

import net from "node:net";

export interface TcpProxy {
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Stops passing bytes either way, leaving every connection open: a server that no longer answers. */
  freeze(): void;
  /**
   * Holds the first bytes of each new connection for `ms` (a server slow to take connections, as
   * a busy machine's is); connections already made pass bytes at once.
   */
  slowNewConnections(ms: number): void;
  /** Stops passing the target's bytes back on connection `index` (in the order accepted): its answers never arrive. */
  withholdAnswers(index: number): void;
  /** Bytes passed on to the target so far, by connection, in the order they were accepted. */
  bytesToTarget(): number[];
  close(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1 in front of `target`, for faults a real server cannot be made to show on cue. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let frozen = false;
  let newConnectionDelayMs = 0;
  const toTarget: number[] = [];
  const withheld = new Set<number>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const passFrom = Date.now() + newConnectionDelayMs;
    const connection = toTarget.push(0) - 1;
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on("data", (chunk) => {
        if (frozen || (to === client && withheld.has(connection))) return;
        if (to === upstream) toTarget[connection]! += chunk.length;
        const wait = passFrom - Date.now();
        if (wait > 0) setTimeout(() => to.write(chunk), wait);
        else to.write(chunk);
      });
      from.on("close", () => to.destroy());
      from.on("error", () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    via(url) {
      const parsed = new URL(url);
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.toString();
    },
    freeze() {
      frozen = true;
    },
    slowNewConnections(ms) {
      newConnectionDelayMs = ms;
    },
    withholdAnswers(index) {
      withheld.add(index);
    },
    bytesToTarget: () => [...toTarget],
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

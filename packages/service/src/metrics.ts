import http from "node:http";
import client from "prom-client";
import { listenOrExit, type ListenSettings } from "./listen-or-exit.ts";

interface PoolStats {
  inUse: number;
  idle: number;
  waiting: number;
}

export interface ServiceMetrics {
  registry: client.Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** A database failure that reached a request, by class (`databaseErrorClass`). */
  countDatabaseError(errorClass: string): void;
  counter(name: string, help: string, labelNames?: string[]): client.Counter;
  histogram(name: string, help: string, buckets: number[]): client.Histogram;
  /** A value read when the metrics are scraped. */
  gauge(name: string, help: string, read: () => number): void;
}

/**
 * One service's Prometheus metrics: requests by route and status, their
 * latency, the database pool (in use, idle, waiting) and database errors by
 * class, besides Node's process metrics. Services add their own (counter,
 * histogram, gauge), in the same registry.
 */
export function createServiceMetrics(service: string, poolStats: () => PoolStats): ServiceMetrics {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new client.Counter({
    name: "http_requests_total",
    help: "Requests answered, by method, route template and status.",
    labelNames: ["method", "route", "status"],
    registers,
  });
  const latency = new client.Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by method and route template.",
    labelNames: ["method", "route"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  new client.Gauge({
    name: "db_pool_connections",
    help: "The database pool's connections in use and idle, and the requests waiting for one.",
    labelNames: ["state"],
    registers,
    collect() {
      const stats = poolStats();
      this.set({ state: "in_use" }, stats.inUse);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "waiting" }, stats.waiting);
    },
  });
  const databaseErrors = new client.Counter({
    name: "db_errors_total",
    help: "Database failures that reached a request, by class (connection, timeout, resources, shutdown, conflict, other).",
    labelNames: ["class"],
    registers,
  });

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    countDatabaseError(errorClass) {
      databaseErrors.inc({ class: errorClass });
    },
    counter: (name, help, labelNames = []) => new client.Counter({ name, help, labelNames, registers }),
    histogram: (name, help, buckets) => new client.Histogram({ name, help, buckets, registers }),
    gauge(name, help, read) {
      new client.Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    },
  };
}

/**
 * Prometheus text at `http://host:port/metrics`, on a listener of its own
 * (METRICS_PORT): one that cannot listen ends the process as the service's
 * own port does (listenOrExit).
 */
export async function serveMetrics(
  registry: client.Registry,
  listening: Omit<ListenSettings, "announce">,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if ((req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await listenOrExit(server, { ...listening, announce: false });
  return server;
}

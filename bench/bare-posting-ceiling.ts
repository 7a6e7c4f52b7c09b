import { fork } from "node:child_process";
import { repoRoot } from "../scripts/env.ts";
import { SERVER_NODE_ARGS, stopProcess } from "../scripts/processes.ts";
import { serverBundle } from "../scripts/server-bundles.ts";
import { profilerArgs } from "./environment.ts";

/** As long as the bench waits for a ledger or web server to become healthy. */
const START_TIMEOUT_MS = 60_000;

export interface BarePostingServer {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Where the bare server's posts go (bench/bare-posting-server.ts says what each is). */
export type BarePostingStore = "minimal" | "ledger";

/**
 * Starts bench/bare-posting-server.ts in a process of its own, posting into
 * `store`, under the ledger's runtime (bundled, the production servers'
 * Node flags, NODE_ENV=production), so the ceiling differs from the ledger
 * only in what the ledger's code does. It reports its port over the IPC channel, which
 * also ends it when the bench's process goes. The caller must `stop()` it;
 * a start that fails stops it here.
 */
export async function startBarePostingServer(
  databaseUrl: string,
  store: BarePostingStore,
): Promise<BarePostingServer> {
  const server = serverBundle("bare-posting-server", ["bench/bare-posting-server.ts"]);
  const child = fork(server, [], {
    cwd: repoRoot,
    execArgv: [...SERVER_NODE_ARGS, ...profilerArgs(`bare-posting-${store}`)],
    env: { ...process.env, DATABASE_URL: databaseUrl, BARE_POSTING_STORE: store, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the bare posting server did not start within ${START_TIMEOUT_MS / 1000} s`)),
        START_TIMEOUT_MS,
      );
      child.once("message", (message: { port: number }) => {
        clearTimeout(timer);
        resolve(message.port);
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the bare posting server exited (${signal ?? code}) before listening`));
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => stopProcess(child) };
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { EmbeddedPostgresError } from "./embedded-postgres-error.ts";

/** The system user the embedded server runs as when we are root (PostgreSQL refuses to run as root). */
export interface ServerUser {
  uid: number;
  gid: number;
}

const NAME = "postgres";
const run = promisify(execFile);

/**
 * `postgres`'s ids when this process is root (the user is created when
 * missing, as Debian's postgresql package would); undefined otherwise: the
 * server then runs as the current user.
 */
export async function serverUser(): Promise<ServerUser | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const ids = async () => ({
    uid: Number((await run("id", ["-u", NAME])).stdout),
    gid: Number((await run("id", ["-g", NAME])).stdout),
  });
  try {
    return await ids();
  } catch {
    // no such user yet
  }
  try {
    const groupExists = await run("getent", ["group", NAME]).then(
      () => true,
      () => false,
    );
    await run("useradd", [
      "--system",
      "--no-create-home",
      "--shell",
      "/usr/sbin/nologin",
      ...(groupExists ? ["--gid", NAME] : ["--user-group"]),
      NAME,
    ]);
    return await ids();
  } catch (error) {
    throw new EmbeddedPostgresError(
      `PostgreSQL does not run as root and the user "${NAME}" to run it as could not be created (${(error as Error).message.split("\n")[0]}); ` +
        `create it (useradd --system ${NAME}), run as another user, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

/**
 * What the server's user can reach, and places for what it cannot: a private
 * checkout (mode 0700, as /root and `mktemp -d` folders are) keeps `postgres`
 * out of node_modules and `.data`. Such clusters and a copy of the binaries
 * live under `stateDirectory`, each cluster in a folder named from its
 * requested path, so two checkouts never share one.
 */
export function placeForServerUser(user: ServerUser | undefined, stateDirectory: string) {
  async function ensureStateDirectory() {
    const problem = await mkdir(stateDirectory, { recursive: true, mode: 0o755 })
      .then(() => chmod(stateDirectory, 0o755))
      .then(
        async () => ((await canReach(stateDirectory)) ? null : `the user "${NAME}" cannot enter it`),
        (error: NodeJS.ErrnoException) => `it could not be made: ${error.code ?? error.message}`,
      );
    if (problem) {
      throw new EmbeddedPostgresError(
        `PostgreSQL runs as the user "${NAME}", who cannot enter this checkout's folders, and ${stateDirectory} ` +
          `cannot hold its data instead (${problem}); move the checkout to a folder other users may enter, ` +
          `set EMBEDDED_POSTGRES_STATE_DIR to a folder they may enter, or set DATABASE_URL to a PostgreSQL server.`,
      );
    }
  }

  /** Whether the server's user may search `target` (and every folder above it). */
  async function canReach(target: string): Promise<boolean> {
    if (!user) return true;
    const child = spawn("/bin/sh", ["-c", 'test -x "$1"', "sh", target], { ...user, stdio: "ignore" });
    return new Promise((resolve) => {
      child.once("error", () => resolve(false));
      child.once("exit", (code) => resolve(code === 0));
    });
  }

  return {
    canReach,

    async clusterDirectory(requested: string): Promise<string> {
      await ensureStateDirectory();
      const id = createHash("sha256").update(requested).digest("hex").slice(0, 12);
      return path.join(stateDirectory, `${id}-${path.basename(requested)}`);
    },

    /**
     * The binaries where the server's user can run them: as they are, or a
     * copy made once per package version (written aside, then renamed, so a
     * concurrent start never runs a half copy).
     */
    async binaries(packaged: { initdb: string; postgres: string }) {
      if (!user || (await canReach(packaged.postgres))) return packaged;
      await ensureStateDirectory();
      const native = path.dirname(path.dirname(packaged.postgres));
      const { name, version } = JSON.parse(
        await readFile(path.join(native, "..", "package.json"), "utf8"),
      ) as {
        name: string;
        version: string;
      };
      const copy = path.join(stateDirectory, `${name.replace("/", "+")}@${version}`);
      if (!existsSync(path.join(copy, "bin", "postgres"))) {
        const partial = `${copy}.${process.pid}.partial`;
        await cp(native, partial, { recursive: true, verbatimSymlinks: true });
        await rename(partial, copy).catch(async (error: NodeJS.ErrnoException) => {
          await rm(partial, { recursive: true, force: true });
          if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
        });
      }
      return { initdb: path.join(copy, "bin", "initdb"), postgres: path.join(copy, "bin", "postgres") };
    },
  };
}

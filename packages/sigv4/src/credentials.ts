import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { SigV4Error } from "./sigv4-error.ts";

export interface Credential {
  accessKeyId: string;
  secretAccessKey: string;
  /** Who signs with the key, for logs and error messages. */
  principal: string;
  /** What the key may do (the service names its actions: `ledger:Read`). */
  actions: string[];
}
export type CredentialStore = ReadonlyMap<string, Credential>;

/** The credential an Authorization header names. */
export function credentialOf(credentials: CredentialStore, accessKeyId: string): Credential {
  const credential = credentials.get(accessKeyId);
  if (!credential) throw new SigV4Error("InvalidAccessKeyId", "the access key id is not known");
  return credential;
}

const credentialsFileSchema = (actions: readonly [string, ...string[]]) =>
  z.array(
    z.strictObject({
      accessKeyId: z.string().regex(/^[A-Z0-9]{16,128}$/, "upper-case letters and digits, 16-128"),
      secretAccessKey: z.string().min(16),
      principal: z.string().min(1),
      actions: z.array(z.enum(actions)),
    }),
  );

/**
 * Reads a credentials file, `[{"accessKeyId","secretAccessKey","principal","actions":[...]}]`,
 * whose actions must be among `actions`; what is wrong with it is said in one
 * sentence naming the file.
 */
export async function loadCredentials(
  file: string,
  actions: readonly [string, ...string[]],
): Promise<CredentialStore> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot read ${file}: ${code === "ENOENT" ? "there is no such file" : String(code)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not a credentials file: it is not JSON`);
  }
  const parsed = credentialsFileSchema(actions).safeParse(json);
  if (!parsed.success)
    throw new Error(`${file} is not a credentials file:\n${z.prettifyError(parsed.error)}`);
  const store = new Map<string, Credential>();
  for (const credential of parsed.data) {
    if (store.has(credential.accessKeyId))
      throw new Error(`${file}: ${credential.accessKeyId} appears twice`);
    store.set(credential.accessKeyId, credential);
  }
  return store;
}

/**
 * The development credentials file, generated once with one key holding every
 * action (concurrent first starts agree on one file).
 */
export async function ensureDevelopmentCredentials(file: string, actions: readonly string[]): Promise<void> {
  try {
    await readFile(file);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const credential: Credential = {
    accessKeyId: `AKIADEV${randomBytes(7).toString("hex").toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString("base64url"),
    principal: "development",
    actions: [...actions],
  };
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify([credential], null, 2)}\n`, { mode: 0o600 });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

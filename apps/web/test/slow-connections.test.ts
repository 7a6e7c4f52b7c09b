import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { httpClient } from "../../../test/http-client.ts";
import { startTcpProxy, type TcpProxy } from "../../../test/tcp-proxy.ts";
import { newUser } from "../../../test/tokens.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

/**
 * A PostgreSQL slow to take new connections (a busy machine, a far network):
 * a fresh server's first requests open the pool's connections, and must wait
 * for them rather than call the database unavailable. (CI once saw a fresh
 * server's first GET /me/resume fail so.)
 */
let proxy: TcpProxy;
let web: WebServer;
let slow: WebServer | undefined;

beforeAll(async () => {
  web = await startWebServer();
  const { hostname, port } = new URL(inject("databaseUrl"));
  proxy = await startTcpProxy({ host: hostname, port: Number(port) });
});

afterAll(async () => {
  await slow?.stop();
  await web?.stop();
  await proxy?.close();
});

describe("a database slow to take new connections (1.5 s each)", () => {
  it("answers a fresh server's first requests, whole resume and personal access token alike", async () => {
    const { authorization } = await newUser();
    const owner = httpClient(web.url, { authorization });
    await owner.put("/me/profile", { name: "Slow Start" });
    const created = await owner.post<{ token: string }>("/me/tokens", {
      name: "script",
      scopes: ["resume:read"],
    });
    expect(created.status).toBe(201);

    proxy.slowNewConnections(1_500);
    slow = await startWebServer({}, proxy.via(inject("databaseUrl")));
    const [resume, withToken] = await Promise.all([
      httpClient(slow.url, { authorization }).get("/me/resume"),
      httpClient(slow.url, { authorization: `Bearer ${created.body.token}` }).get("/me/profile"),
    ]);
    expect(resume.status, resume.text).toBe(200);
    expect(resume.body.profile).toMatchObject({ name: "Slow Start" });
    expect(withToken.status, withToken.text).toBe(200);
  }, 60_000);
});

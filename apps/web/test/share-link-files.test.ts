/**
 * A share link's files on the production server, whose document workers
 * make at most two of one person's documents at once: readers asking for a
 * file at the same moment wait for the one being made, and are never told to
 * come back later (429) for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpClient } from "../../../test/http-client.ts";
import { newUser } from "../../../test/tokens.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

let web: WebServer;

beforeAll(async () => {
  // The public rate limit is counted per address in the database, which the other tests' pages share.
  web = await startWebServer({ PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" });
});

afterAll(async () => {
  await web?.stop();
});

describe("a share link's files", () => {
  it("are made once for readers who ask at the same moment: each gets the file, none a 429", async () => {
    const api = httpClient(web.url, { authorization: (await newUser()).authorization });
    await api.put("/me/profile", { name: "Paula Public", summary: "word ".repeat(2000) });
    const version = await api.post<{ id: string }>("/me/versions", { name: "For recruiters" });
    const link = await api.post<{ url: string }>(`/me/versions/${version.body.id}/links`, {});
    const url = `${web.url}${new URL(link.body.url).pathname}.pdf`;

    const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(url)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    const files = await Promise.all(answers.map(async (answer) => Buffer.from(await answer.arrayBuffer())));
    for (const file of files) expect(file.equals(files[0]!)).toBe(true);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { DomainError } from "@app/rest/errors";
import type { WholeResume } from "@app/resume";
import { createLogger } from "@app/service";
import { createDocumentWorkers, type DocumentWorkers } from "../src/api/document-workers.ts";

/** Real worker threads making real documents; what a person or a slow document may hold is bounded. */
const logger = createLogger("test", { level: "silent" });
let workers: DocumentWorkers | undefined;

afterEach(async () => {
  await workers?.close();
  workers = undefined;
});

const resume = (hobbies: number): WholeResume =>
  ({
    profile: null,
    experience: [],
    education: [],
    skills: [],
    certifications: [],
    goals: [],
    hobbies: Array.from({ length: hobbies }, (_, i) => ({
      id: String(i),
      name: `Hobby ${i}`,
      description: "word ".repeat(900),
    })),
  }) as unknown as WholeResume;

const statusOf = (error: unknown) => (error instanceof DomainError ? error.status : error);

describe("document workers", () => {
  it("make a person's documents two at a time, and refuse a third meanwhile with 429", async () => {
    workers = createDocumentWorkers(1, logger);
    const alice = workers.renderFor("alice");
    const made = [alice(resume(20), "pdf", "a4"), alice(resume(20), "docx", "a4")];
    await expect(alice(resume(1), "text", "a4").catch(statusOf)).resolves.toBe(429);
    // Someone else is not held to Alice's share.
    const bob = await workers.renderFor("bob")(resume(1), "text", "a4");
    expect(bob.body).toContain("Hobby 0");
    const [pdf, docx] = await Promise.all(made);
    expect(pdf!.headers["content-type"]).toBe("application/pdf");
    expect(Buffer.isBuffer(pdf!.body)).toBe(true);
    expect(docx!.headers["content-type"]).toMatch(/wordprocessingml/);
    // Done: Alice may ask again.
    expect((await alice(resume(1), "text", "a4")).body).toContain("Hobby 0");
  });

  it("count a person's pages (Markdown, themed HTML) apart from their files: four pages beside two files", async () => {
    workers = createDocumentWorkers(1, logger);
    const carol = workers.renderFor("carol");
    const files = [carol(resume(20), "pdf", "a4"), carol(resume(1), "text", "a4")];
    const pages = [
      carol(resume(1), "markdown", "a4"),
      carol(resume(1), "html", "a4", "even"),
      carol(resume(1), "markdown", "a4"),
      carol(resume(1), "html", "a4", "stackoverflow"),
    ];
    await expect(carol(resume(1), "html", "a4").catch(statusOf)).resolves.toBe(429);
    await expect(carol(resume(1), "docx", "a4").catch(statusOf)).resolves.toBe(429);
    const [markdown, even] = await Promise.all(pages);
    expect(markdown!.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(markdown!.body).toContain("Hobby 0");
    expect(even!.headers["content-security-policy"]).toMatch(/^default-src 'none'/);
    expect(even!.body).toMatch(/^<!doctype html>/);
    await Promise.all(files);
  });

  it("end a document that takes too long with 503, and make the next one on a new worker", async () => {
    workers = createDocumentWorkers(1, logger, { timeoutMs: 100 });
    // About 700,000 characters: a second or more of layout.
    await expect(workers.renderFor("slow")(resume(150), "pdf", "a4").catch(statusOf)).resolves.toBe(503);
    expect((await workers.renderFor("next")(resume(1), "text", "a4")).body).toContain("Hobby 0");
  });

  it("fail what is still waiting when closed, with 503", async () => {
    workers = createDocumentWorkers(1, logger);
    const running = workers.renderFor("a")(resume(100), "pdf", "a4").catch(statusOf);
    const waiting = workers.renderFor("b")(resume(1), "text", "a4").catch(statusOf);
    await workers.close();
    await expect(waiting).resolves.toBe(503);
    await running;
    await expect(workers.renderFor("c")(resume(1), "text", "a4").catch(statusOf)).resolves.toBe(503);
  });
});

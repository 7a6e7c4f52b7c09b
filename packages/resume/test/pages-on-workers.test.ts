import { describe, expect, it } from "vitest";
import { createResponseControl } from "@app/rest";
import { LIMITS } from "../src/limits.ts";
import { renderResumeDocument, type RenderResumeDocument } from "../src/documents/render-resume-document.ts";
import { answerInFormat } from "../src/routers/resume-formats.ts";
import type { WholeResume } from "../src/schemas/whole-resume.ts";

const stored = { created_at: "2026-11-26T10:00:00.000Z", updated_at: "2026-11-26T10:00:00.000Z" };

/** A resume whose one hobby's description has `characters` characters. */
function resumeOf(characters: number): WholeResume {
  const description = "word ".repeat(Math.ceil(characters / 5)).slice(0, characters);
  return {
    profile: null,
    experience: [],
    education: [],
    skills: [],
    certifications: [],
    hobbies: Array.from({ length: Math.ceil(characters / 5000) }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      name: `Hobby ${i}`,
      description: description.slice(0, 5000),
      ...stored,
    })),
    goals: [],
  } as unknown as WholeResume;
}

/** The formats answerInFormat handed to the worker's renderer, making each here all the same. */
async function formatsSentToWorkers(resume: WholeResume): Promise<string[]> {
  const sent: string[] = [];
  const worker: RenderResumeDocument = (...args) => {
    sent.push(args[1]);
    return renderResumeDocument(...args);
  };
  for (const format of ["markdown", "html", "text"] as const) {
    const ctx = { response: createResponseControl(), renderDocument: worker };
    await answerInFormat(ctx, resume, { format, theme: "even", paper: "a4" });
  }
  return sent;
}

describe("the Markdown and the themed page", () => {
  it("of a resume of ordinary length are made on the request's thread, its files on a worker", async () => {
    expect(await formatsSentToWorkers(resumeOf(10_000))).toEqual(["text"]);
  });

  it("of a longer resume go to a worker as well, where their seconds hold up no other request", async () => {
    expect(await formatsSentToWorkers(resumeOf(LIMITS.pageTextOnRequestThread + 5_000))).toEqual([
      "markdown",
      "html",
      "text",
    ]);
  });
});

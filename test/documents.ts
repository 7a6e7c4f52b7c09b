import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { inflateSync } from "node:zlib";
import JSZip from "jszip";

const run = promisify(execFile);

const installed = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;

/**
 * Debian's poppler-utils and libreoffice-writer, which .ci/run installs: a
 * machine with only Node and npm runs the tests that need them only where they are.
 */
export const hasPoppler = installed("pdftotext") && installed("pdfinfo");
export const hasLibreOffice = installed("soffice");

/**
 * Runs a command-line reader of documents (poppler's pdftotext and pdfinfo,
 * LibreOffice) on `bytes` written to a file of its own; answers its output.
 */
async function readDocument(
  bytes: Uint8Array,
  fileName: string,
  command: (file: string, directory: string) => [string, string[]],
): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), "document-"));
  try {
    const file = path.join(directory, fileName);
    await writeFile(file, bytes);
    const [program, args] = command(file, directory);
    return (await run(program, args, { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 })).stdout;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export const pdfText = (pdf: Uint8Array, ...options: string[]) =>
  readDocument(pdf, "resume.pdf", (file) => ["pdftotext", ["-enc", "UTF-8", ...options, file, "-"]]);

export const pdfInfo = (pdf: Uint8Array, ...options: string[]) =>
  readDocument(pdf, "resume.pdf", (file) => ["pdfinfo", [...options, file]]);

/**
 * How many times the PDF's text draws glyph 0, a font's `.notdef` (the empty
 * box of a character it has no glyph for), read from its deflated content
 * streams: pdfkit writes text as `[<glyph ids in hex>] TJ`.
 */
export function notdefGlyphsDrawn(pdf: Uint8Array): number {
  const bytes = Buffer.from(pdf);
  const text = bytes.toString("latin1");
  let drawn = 0;
  for (const start of text.matchAll(/stream\r?\n/g)) {
    const from = start.index + start[0].length;
    let content: string;
    try {
      content = inflateSync(bytes.subarray(from, text.indexOf("endstream", from))).toString("latin1");
    } catch {
      continue; // not deflated: a font or an image, no text
    }
    for (const [, array] of content.matchAll(/\[([^\]]*)\]\s*TJ/g))
      for (const [, glyphs] of array!.matchAll(/<([0-9a-fA-F]+)>/g))
        drawn += glyphs!.match(/.{4}/g)!.filter((glyph) => glyph === "0000").length;
  }
  return drawn;
}

/** One part of a Word document (a zip), such as `word/document.xml`. */
export async function docxPart(docx: Uint8Array, part: string): Promise<string> {
  const file = (await JSZip.loadAsync(docx)).file(part);
  if (!file) throw new Error(`the document has no ${part}`);
  return file.async("string");
}

/** The text of the PDF LibreOffice makes of a Word document: it opens it, or fails. */
export const docxOpenedByLibreOffice = (docx: Uint8Array) =>
  readDocument(docx, "resume.docx", (file, directory) => [
    "sh",
    [
      "-c",
      // A profile of its own: a second soffice would otherwise hand the work to a running one.
      `soffice -env:UserInstallation=file://${directory}/profile --headless --convert-to pdf --outdir "${directory}" "${file}" >/dev/null && pdftotext -enc UTF-8 "${directory}/resume.pdf" -`,
    ],
  ]);

/**
 * The README and docs/ are read by people who cloned the repository and
 * nothing else: every relative link (`[text](path)`, `[text](path#anchor)`)
 * resolves to a file of the repository (tracked, or new and not ignored), an
 * anchor to a heading of its file (GitHub's slug), and no page names the
 * material that lives outside the repository. Needs no server or database.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/env.ts";

const run = promisify(execFile);

/** What a page must not mention: places outside the repository. */
const FORBIDDEN = ["../shared", "shared/spec", "DESIGN.md"];

/** The repository's files as a clone has them: tracked, or new and not ignored (.data, node_modules are not). */
async function repositoryFiles(): Promise<Set<string>> {
  const { stdout } = await run("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  return new Set(stdout.split("\0").filter(Boolean));
}

/** The text outside fenced code blocks and inline code spans, line for line (links there are not links). */
function proseOf(markdown: string): string {
  let fence: string | null = null;
  return markdown
    .split("\n")
    .map((line) => {
      const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence) {
        if (opening && opening[0] === fence[0] && opening.length >= fence.length) fence = null;
        return "";
      }
      if (opening) {
        fence = opening;
        return "";
      }
      return line.replace(/(`+)[\s\S]*?\1/g, "");
    })
    .join("\n");
}

interface Link {
  line: number;
  target: string;
}

/** The inline links and images of a page: `[text](target)`, `[text](target "title")`, `[text](<target>)`. */
function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  proseOf(markdown)
    .split("\n")
    .forEach((text, index) => {
      for (const [, raw] of text.matchAll(
        /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\s*\)/g,
      )) {
        links.push({ line: index + 1, target: raw!.replace(/^<|>$/g, "") });
      }
    });
  return links;
}

/** GitHub's anchor of a heading's text: lower case, punctuation dropped, spaces as hyphens. */
function slugOf(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link shows its text
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a page's headings (`#` headings outside code), repeated ones numbered as GitHub does. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length) fence = null;
      continue;
    }
    if (opening) {
      fence = opening;
      continue;
    }
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** How one page's links fail: none when every relative one resolves inside the repository. */
function brokenLinks(
  page: string,
  markdown: string,
  files: ReadonlySet<string>,
  read: (file: string) => string,
): string[] {
  const broken: string[] = [];
  const isDirectory = (dir: string) => [...files].some((file) => file.startsWith(`${dir}/`));
  for (const { line, target } of linksOf(markdown)) {
    const where = `${page}:${line} (${target})`;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: — not a path
    if (target.startsWith("/")) {
      broken.push(`${where}: a path from the root; write it relative to the page`);
      continue;
    }
    const hash = target.indexOf("#");
    const filePart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = filePart
      ? path.posix.normalize(path.posix.join(path.posix.dirname(page), filePart)).replace(/\/$/, "")
      : page;
    if (resolved === ".." || resolved.startsWith("../")) {
      broken.push(`${where}: outside the repository`);
      continue;
    }
    if (!files.has(resolved) && !isDirectory(resolved)) {
      broken.push(`${where}: no such file in the repository (${resolved})`);
      continue;
    }
    if (anchor === undefined || anchor === "") continue;
    if (!resolved.endsWith(".md")) {
      broken.push(`${where}: an anchor into ${resolved}, which has no headings`);
    } else if (!anchorsOf(read(resolved)).has(anchor)) {
      broken.push(`${where}: ${resolved} has no heading #${anchor}`);
    }
  }
  return broken;
}

describe("the checker itself", () => {
  const files = new Set(["README.md", "docs/a.md", "docs/b.md", "apps/web/src/main.ts"]);
  const pages: Record<string, string> = {
    "docs/b.md":
      "# Title\n\n## Retry-safe creates\n\n## `GET /me/resume`, kept answers\n\n## Errors\n\n## Errors\n",
  };
  const check = (page: string, text: string) => brokenLinks(page, text, files, (file) => pages[file] ?? "");

  it("passes links that resolve, anchors included", () => {
    const page = [
      "[b](b.md) [b](./b.md#retry-safe-creates) [main](../apps/web/src/main.ts) [app](../apps/web/)",
      "[cache](b.md#get-meresume-kept-answers) [second](b.md#errors-1) [site](https://jsonresume.org/schema)",
      '[title](b.md "B")',
    ].join("\n");
    expect(check("docs/a.md", page)).toEqual([]);
    expect(check("docs/b.md", "[top](#title)")).toEqual([]);
  });

  it("finds a missing file, a missing heading, a path outside the repository or from the root", () => {
    const page =
      "[x](missing.md)\n[y](b.md#nowhere)\n[z](../../shared/spec/resume-service.md)\n[r](/README.md)";
    expect(check("docs/a.md", page)).toEqual([
      "docs/a.md:1 (missing.md): no such file in the repository (docs/missing.md)",
      "docs/a.md:2 (b.md#nowhere): docs/b.md has no heading #nowhere",
      "docs/a.md:3 (../../shared/spec/resume-service.md): outside the repository",
      "docs/a.md:4 (/README.md): a path from the root; write it relative to the page",
    ]);
  });

  it("reads no links in code", () => {
    expect(check("docs/a.md", "`[x](missing.md)`\n\n```md\n[y](missing.md)\n```\n")).toEqual([]);
  });
});

describe("README.md and docs/", () => {
  let files: Set<string>;
  let pages: string[];
  const texts = new Map<string, string>();
  const read = (file: string) => texts.get(file) ?? "";

  beforeAll(async () => {
    files = await repositoryFiles();
    pages = [...files].filter((file) => file === "README.md" || /^docs\/.+\.md$/.test(file)).sort();
    const others = [...files].filter((file) => file.endsWith(".md"));
    for (const file of new Set([...pages, ...others])) {
      texts.set(file, await readFile(path.join(repoRoot, file), "utf8"));
    }
  });

  it("are there: the README and the docs it links to", () => {
    expect(pages).toContain("README.md");
    expect(pages.some((page) => page.startsWith("docs/"))).toBe(true);
  });

  it("link only to files and headings inside the repository", () => {
    const broken = pages.flatMap((page) => brokenLinks(page, read(page), files, read));
    expect(broken).toEqual([]);
  });

  it("name nothing outside the repository", () => {
    const mentions = pages.flatMap((page) =>
      read(page)
        .split("\n")
        .flatMap((line, index) =>
          FORBIDDEN.filter((word) => line.includes(word)).map((word) => `${page}:${index + 1}: ${word}`),
        ),
    );
    expect(mentions).toEqual([]);
  });
});

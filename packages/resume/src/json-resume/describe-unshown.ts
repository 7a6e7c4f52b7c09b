/**
 * The parts of a JSON Resume document that the editor has no field for, told
 * in words before an import replaces a resume: "Twitter profile", "6
 * volunteer entries", "description of 2 work entries". The parts themselves
 * are found by fromJsonResume (its `ignored` paths); this only names them.
 */
import { formatDocumentPath, type DocumentPath } from "@app/rest/paths";
import { fromJsonResume } from "./from-json-resume.ts";
import { isJsonObject } from "./json-resume-mapping.ts";

/** Singular and plural of one item of an array, by the array's path as formatDocumentPath writes it. */
const NOUNS: Record<string, [string, string]> = {
  work: ["work entry", "work entries"],
  education: ["education entry", "education entries"],
  skills: ["skill", "skills"],
  certificates: ["certificate", "certificates"],
  interests: ["interest", "interests"],
  volunteer: ["volunteer entry", "volunteer entries"],
  awards: ["award", "awards"],
  publications: ["publication", "publications"],
  languages: ["language", "languages"],
  references: ["reference", "references"],
  projects: ["project", "projects"],
  "basics.profiles": ["profile", "profiles"],
  'meta["x-resume"].goals': ["goal", "goals"],
};

/** `basics` keys whose plain name says less than a phrase. */
const BASICS_WORDS: Record<string, string> = {
  image: "picture",
  url: "website address",
};

const METADATA = "document metadata (meta)";

/** One thing told in the list: paths of the same group are counted in one phrase. */
interface Group {
  key: string;
  /** What is counted: an item's index, or the path itself when it stands alone. */
  item: number | string;
  phrase(count: number): string;
}

/**
 * Short phrases for the `paths` of `document` (as fromJsonResume lists them),
 * grouped and counted, in the order their first path comes. A path it cannot
 * name is given as it is.
 */
export function describeUnshown(document: unknown, paths: readonly string[]): string[] {
  const groups = new Map<string, { items: Set<number | string>; phrase: Group["phrase"] }>();
  for (const path of paths) {
    const { key, item, phrase } = groupOf(document, path);
    const group = groups.get(key) ?? { items: new Set(), phrase };
    group.items.add(item);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ items, phrase }) => phrase(items.size));
}

function groupOf(document: unknown, path: string): Group {
  const asIs: Group = { key: `path:${path}`, item: path, phrase: () => path };
  const alone = (words: string): Group => ({ key: path, item: path, phrase: () => words });
  const segments = parsePath(path);
  if (!segments || typeof segments[0] !== "string") return asIs;
  const [root, second, third] = segments;

  // Everything of `meta` but the editor's own `meta["x-resume"]` is one thing to a reader.
  if (root === "meta" && second !== "x-resume") return { key: "meta", item: path, phrase: () => METADATA };
  if (segments.length === 1) {
    if (root === "$schema") return alone("schema link ($schema)");
    const value = isJsonObject(document) ? document[root] : undefined;
    return Array.isArray(value) ? alone(countedPhrase(value.length, nounsOf(root))) : asIs;
  }
  if (
    root === "basics" &&
    segments.length === 2 &&
    typeof second === "string" &&
    Object.hasOwn(BASICS_WORDS, second)
  )
    return alone(BASICS_WORDS[second]!);
  if (root === "basics" && second === "location" && typeof third === "string" && segments.length === 3)
    return alone(wordsOf(third));

  // An item of an array (`basics.profiles[0]`) or one key of items (`work[2].description`).
  const itemAt = segments.findIndex((segment) => typeof segment === "number");
  if (itemAt < 1) return asIs;
  const container = formatDocumentPath(segments.slice(0, itemAt));
  const index = segments[itemAt] as number;
  const key = segments[itemAt + 1];
  if (key === undefined && container === "basics.profiles") {
    const network = networkOf(document, index);
    const nouns: [string, string] =
      network === undefined
        ? ["profile without a network", "profiles without a network"]
        : [`${network} profile`, `${network} profiles`];
    return {
      key: `profile:${network ?? ""}`,
      item: index,
      phrase: (count) => countedPhrase(count, nouns, false),
    };
  }
  if (typeof key !== "string") return asIs;
  return {
    key: `${container}:${key}`,
    item: index,
    phrase: (count) => `${wordsOf(key)} of ${countedPhrase(count, nounsOf(container))}`,
  };
}

/** What the editor will not show of a JSON Resume `document`, in words (describeUnshown). */
export function unshownPartsOf(document: unknown): string[] {
  return describeUnshown(document, fromJsonResume(document).ignored);
}

/** `2 volunteer entries`, `1 skill`; with `showOne` false, a lone item is named without its count. */
function countedPhrase(count: number, [one, many]: [string, string], showOne = true): string {
  if (count === 1) return showOne ? `1 ${one}` : one;
  return count === 0 ? `no ${many}` : `${count} ${many}`;
}

function nounsOf(container: string): [string, string] {
  return Object.hasOwn(NOUNS, container) ? NOUNS[container]! : [`${container} entry`, `${container} entries`];
}

/** `postalCode` -> `postal code`, `url` -> `URL`; a key that is not camelCase (`x-type`) stays as it is. */
function wordsOf(key: string): string {
  if (key === "url") return "URL";
  if (!/^[a-z][A-Za-z]*$/.test(key)) return key;
  return key.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}

/** The network of `basics.profiles[index]`, when it has one. */
function networkOf(document: unknown, index: number): string | undefined {
  const basics = (document as { basics?: { profiles?: unknown } }).basics;
  const profile: unknown = Array.isArray(basics?.profiles) ? basics.profiles[index] : undefined;
  const network = (profile as { network?: unknown } | undefined)?.network;
  return typeof network === "string" && network.trim() !== "" ? network.trim() : undefined;
}

/** The segments of a path written by formatDocumentPath (`work[0].url`, `meta["x-resume"]`); null for anything else. */
function parsePath(path: string): DocumentPath | null {
  const segments: (string | number)[] = [];
  // A bare key only first (`^` does not match later in a sticky search), then `.key`, `[0]` or `["x-key"]`.
  const pattern = /(?:^|\.)([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (!match) return null;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(JSON.parse(match[3]!) as string);
  }
  return segments.length > 0 ? segments : null;
}

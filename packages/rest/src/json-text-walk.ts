/**
 * A walk over the text of a JSON document (already known to be valid JSON),
 * for what `JSON.parse` does not keep: the literal a number was written as,
 * and every member of an object, a repeated name too.
 */

import type { DocumentPath } from "./document-path.ts";

export interface JsonTextVisitor {
  /** A number, as written (`match[0]`; its whole digits, fraction digits and exponent captured), where it sits. */
  number?(path: DocumentPath, match: RegExpExecArray): void;
  /** An object, once read: where it sits, and its members' names in the order written. */
  object?(path: DocumentPath, names: string[]): void;
}

/**
 * How many findings of a walk keep their paths: the issues a 400 names. Past
 * them a finding is counted, its path not copied (a body nested a million deep
 * could hold a million findings, each path a million long).
 */
export const FINDINGS_WITH_PATHS = 100;

/** The first FINDINGS_WITH_PATHS of `found`, each `named`, then `more` of how many others there are, if any. */
export function namedFindings<T, U>(found: T[], named: (item: T) => U, more: (count: number) => U): U[] {
  const issues = found.slice(0, FINDINGS_WITH_PATHS).map(named);
  const others = found.length - FINDINGS_WITH_PATHS;
  return others > 0 ? [...issues, more(others)] : issues;
}

interface Walk {
  text: string;
  at: number;
  /** Where the walk is; the visitor's calls get this array itself, to be copied if kept. */
  path: (string | number)[];
}

const WHITESPACE = /[ \t\n\r]*/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;
/** A number as JSON writes it: its whole digits, fraction digits and exponent captured. */
export const JSON_NUMBER = String.raw`-?(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?`;
const NUMBER = new RegExp(JSON_NUMBER, "y");
const LITERAL = /true|false|null/y;

/** Reads `pattern` where the walk is, and moves past it. */
function take(walk: Walk, pattern: RegExp): RegExpExecArray | null {
  pattern.lastIndex = walk.at;
  const match = pattern.exec(walk.text);
  if (match) walk.at = pattern.lastIndex;
  return match;
}

/** The next character past whitespace, not taken. */
function peek(walk: Walk): string | undefined {
  take(walk, WHITESPACE);
  return walk.text[walk.at];
}

/**
 * Reads the one value of `text`, telling `visitor` of its numbers and objects:
 * containers with a stack of their own, not by recursion (a body may nest as
 * deep as its size allows).
 */
export function walkJsonText(text: string, visitor: JsonTextVisitor): void {
  const walk: Walk = { text, at: 0, path: [] };
  const open: { close: "}" | "]"; index: number; names: string[] }[] = [];
  do {
    const container = open.at(-1);
    if (container) {
      // Past the first member, a "," before the next; at the close, the container ends.
      if (container.index > 0 && peek(walk) === ",") walk.at++;
      if (peek(walk) === container.close) {
        walk.at++;
        open.pop();
        if (container.close === "}") visitor.object?.(walk.path, container.names);
        walk.path.pop();
        continue;
      }
      if (container.close === "}") {
        peek(walk);
        const name = JSON.parse(take(walk, STRING)![0]) as string;
        if (visitor.object) container.names.push(name);
        walk.path.push(name);
        peek(walk);
        walk.at++; // the ":"
      } else {
        walk.path.push(container.index);
      }
      container.index++;
    }
    const first = peek(walk);
    if (first === "{" || first === "[") {
      walk.at++;
      open.push({ close: first === "{" ? "}" : "]", index: 0, names: [] });
      continue; // its path part is popped when it closes
    }
    readScalar(walk, visitor);
    if (container) walk.path.pop();
  } while (open.length > 0);
}

function readScalar(walk: Walk, visitor: JsonTextVisitor): void {
  if (walk.text[walk.at] === '"') return void take(walk, STRING);
  const number = take(walk, NUMBER);
  if (number === null) return void take(walk, LITERAL);
  visitor.number?.(walk.path, number);
}

/**
 * Numbers of a JSON body that parsing rounded to a whole number they are not.
 *
 * `JSON.parse` reads `1.0000000000000001` and `9007199254740991.4` as the
 * doubles 1 and 9007199254740991, and `1e-400` as 0: a schema then sees a
 * whole number where the client sent a fraction, and an amount nobody sent
 * would be stored. A literal rounds so only with at least 16 significant
 * digits (a double holds about 15.95) or an exponent below -99 (a double's
 * smallest is about 5e-324), so a body with neither is not walked.
 */

import type { DocumentPath } from "./document-path.ts";

/** A number JSON parsing rounded: where it is (`["entries", 0, "amount"]`), as sent and as read. */
export interface RoundedNumber {
  path: DocumentPath;
  sent: string;
  read: number;
}

/** A run of 16 digits, or a number (after `:`, `,`, `[` or a space, so no uuid's `2e-123`) with a 3-digit negative exponent. */
const MAY_ROUND = /\d[\d.]{15}|[:,[\s]-?\d+(?:\.\d+)?[eE]-\d{3}/;

/** The numbers of `text` (valid JSON) that parsed to a safe whole number other than themselves. */
export function roundedWholeNumbers(text: string): RoundedNumber[] {
  if (!MAY_ROUND.test(text)) return [];
  const walk: Walk = { text, at: 0, path: [], found: [] };
  readValue(walk);
  return walk.found;
}

interface Walk {
  text: string;
  at: number;
  path: (string | number)[];
  found: RoundedNumber[];
}

const WHITESPACE = /[ \t\n\r]*/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;
/** A number as JSON writes it: its whole digits, fraction digits and exponent captured. */
const JSON_NUMBER = String.raw`-?(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?`;
const NUMBER = new RegExp(JSON_NUMBER, "y");
const ONE_JSON_NUMBER = new RegExp(`^${JSON_NUMBER}$`);

/** Whether `text` is one number as JSON writes it (`10`, `1e1`; not ``, `0x10` or `+5`, which Number() reads). */
export const isJsonNumberText = (text: string): boolean => ONE_JSON_NUMBER.test(text);
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
 * Reads the one value of the text: containers with a stack of their own, not
 * by recursion (a body may nest as deep as its size allows).
 */
function readValue(walk: Walk): void {
  const open: { close: "}" | "]"; index: number }[] = [];
  do {
    const container = open.at(-1);
    if (container) {
      // Past the first member, a "," before the next; at the close, the container ends.
      if (container.index > 0 && peek(walk) === ",") walk.at++;
      if (peek(walk) === container.close) {
        walk.at++;
        open.pop();
        walk.path.pop();
        continue;
      }
      if (container.close === "}") {
        peek(walk);
        walk.path.push(JSON.parse(take(walk, STRING)![0]) as string);
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
      open.push({ close: first === "{" ? "}" : "]", index: 0 });
      continue; // its path part is popped when it closes
    }
    readScalar(walk);
    if (container) walk.path.pop();
  } while (open.length > 0);
}

function readScalar(walk: Walk): void {
  if (walk.text[walk.at] === '"') return void take(walk, STRING);
  const number = take(walk, NUMBER);
  if (number === null) return void take(walk, LITERAL);
  const [sent, whole = "", fraction = "", exponent = "0"] = number;
  const read = Number(sent);
  // Past 2^53 a whole number has no exact double; schemas refuse those as unsafe by their value.
  if (Number.isSafeInteger(read) && !isExactly(whole + fraction, Number(exponent) - fraction.length, read)) {
    walk.found.push({ path: [...walk.path], sent, read });
  }
}

/** Whether `digits` × 10^`exponent` is exactly `read`'s magnitude, a whole number. */
function isExactly(digits: string, exponent: number, read: number): boolean {
  const significant = digits.replace(/^0+/, "");
  const kept = significant.replace(/0+$/, "");
  if (kept === "") return read === 0;
  const power = exponent + (significant.length - kept.length);
  // A fraction is left past the trailing zeros: not the whole number it read as.
  if (power < 0) return false;
  return BigInt(kept) * 10n ** BigInt(power) === BigInt(Math.abs(read));
}

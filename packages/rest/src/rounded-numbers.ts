/**
 * Numbers of a JSON body that parsing read as another number than the one written.
 *
 * `JSON.parse` reads `1.0000000000000001` as the double 1, `12345678901234567890`
 * as 12345678901234567000 (what JSON.stringify writes back), `1e-400` as 0 and
 * `1e400` as Infinity (written back as null): a schema would see a whole number
 * where the client sent a fraction, an amount nobody sent would be stored, and a
 * document kept as imported (JSON Resume) would be exported with another number.
 * A literal reads so only with at least 16 significant digits (a double keeps 15
 * whatever they are) or a three-digit exponent (past a double's range), so a body
 * with neither is not walked.
 */

import type { DocumentPath } from "./document-path.ts";
import { FINDINGS_WITH_PATHS, JSON_NUMBER, walkJsonText } from "./json-text-walk.ts";

/** A number JSON parsing rounded: where it is (`["entries", 0, "amount"]`), as sent and as read. */
export interface RoundedNumber {
  path: DocumentPath;
  sent: string;
  read: number;
}

/** A run of 16 digits, or a number (after `:`, `,`, `[` or a space, so no uuid's `2e-123`) with a 3-digit exponent. */
const MAY_ROUND = /\d[\d.]{15}|[:,[\s]-?\d+(?:\.\d+)?[eE][+-]?\d{3}/;

/**
 * The numbers of `text` (valid JSON) that parsed to a double whose shortest
 * JSON names another number; past the first FINDINGS_WITH_PATHS, without their
 * paths (a body nested a million deep could hold a million such numbers).
 */
export function roundedNumbers(text: string): RoundedNumber[] {
  if (!MAY_ROUND.test(text)) return [];
  const found: RoundedNumber[] = [];
  walkJsonText(text, {
    number(path, literal) {
      const read = Number(literal[0]);
      const written = Number.isFinite(read) ? ONE_JSON_NUMBER.exec(String(read)) : null;
      if (!written || decimalOf(written) !== decimalOf(literal)) {
        found.push({ path: found.length < FINDINGS_WITH_PATHS ? [...path] : [], sent: literal[0], read });
      }
    },
  });
  return found;
}

const ONE_JSON_NUMBER = new RegExp(`^${JSON_NUMBER}$`);

/** Whether `text` is one number as JSON writes it (`10`, `1e1`; not ``, `0x10` or `+5`, which Number() reads). */
export const isJsonNumberText = (text: string): boolean => ONE_JSON_NUMBER.test(text);

/** A number as JSON writes it, matched by JSON_NUMBER, as one spelling of its value: `-12e3` for `-1.20e4`, `0` for zeros. */
function decimalOf([text, whole = "", fraction = "", exponent = "0"]: RegExpExecArray): string {
  const digits = whole + fraction;
  // By hand: /0+$/ tries again from each zero of a run, and a run of 60,000 took seconds.
  let first = 0;
  while (digits[first] === "0") first++;
  let end = digits.length;
  while (end > first && digits[end - 1] === "0") end--;
  if (first === end) return "0";
  const power = Number(exponent) - fraction.length + (digits.length - end);
  return `${text.startsWith("-") ? "-" : ""}${digits.slice(first, end)}e${power}`;
}

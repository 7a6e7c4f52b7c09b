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
import { JSON_NUMBER, walkJsonText } from "./json-text-walk.ts";

/** A number JSON parsing rounded: where it is (`["entries", 0, "amount"]`), as sent and as read. */
export interface RoundedNumber {
  path: DocumentPath;
  sent: string;
  read: number;
}

/** A run of 16 digits, or a number (after `:`, `,`, `[` or a space, so no uuid's `2e-123`) with a 3-digit exponent. */
const MAY_ROUND = /\d[\d.]{15}|[:,[\s]-?\d+(?:\.\d+)?[eE][+-]?\d{3}/;

/** The numbers of `text` (valid JSON) that parsed to a double whose shortest JSON names another number. */
export function roundedNumbers(text: string): RoundedNumber[] {
  if (!MAY_ROUND.test(text)) return [];
  const found: RoundedNumber[] = [];
  walkJsonText(text, {
    number(path, literal) {
      const read = Number(literal[0]);
      const written = Number.isFinite(read) ? ONE_JSON_NUMBER.exec(String(read)) : null;
      if (!written || decimalOf(written) !== decimalOf(literal)) {
        found.push({ path: [...path], sent: literal[0], read });
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
  const digits = (whole + fraction).replace(/^0+/, "");
  const significant = digits.replace(/0+$/, "");
  if (significant === "") return "0";
  const power = Number(exponent) - fraction.length + (digits.length - significant.length);
  return `${text.startsWith("-") ? "-" : ""}${significant}e${power}`;
}

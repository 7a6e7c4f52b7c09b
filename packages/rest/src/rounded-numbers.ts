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
import { JSON_NUMBER, walkJsonText } from "./json-text-walk.ts";

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
  const found: RoundedNumber[] = [];
  walkJsonText(text, {
    number(path, [sent, whole = "", fraction = "", exponent = "0"]) {
      const read = Number(sent);
      // Past 2^53 a whole number has no exact double; schemas refuse those as unsafe by their value.
      if (
        Number.isSafeInteger(read) &&
        !isExactly(whole + fraction, Number(exponent) - fraction.length, read)
      ) {
        found.push({ path: [...path], sent, read });
      }
    },
  });
  return found;
}

const ONE_JSON_NUMBER = new RegExp(`^${JSON_NUMBER}$`);

/** Whether `text` is one number as JSON writes it (`10`, `1e1`; not ``, `0x10` or `+5`, which Number() reads). */
export const isJsonNumberText = (text: string): boolean => ONE_JSON_NUMBER.test(text);

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

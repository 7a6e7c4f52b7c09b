import { headerValue, type ReceivedHeaders } from "./received-request.ts";
import { SigV4Error } from "./sigv4-error.ts";

const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

export interface RequestDate {
  /** x-amz-date as sent: the string to sign repeats it and the credential scope its first 8 characters. */
  amzDate: string;
  signedAt: Date;
}

export function requestDateOf(headers: ReceivedHeaders): RequestDate {
  const amzDate = headerValue(headers, "x-amz-date");
  const signedAt = amzDate ? parseAmzDate(amzDate) : null;
  if (!amzDate || !signedAt) {
    throw new SigV4Error("AuthorizationHeaderMalformed", "x-amz-date must be sent as YYYYMMDDTHHMMSSZ");
  }
  return { amzDate, signedAt };
}

/**
 * A signed request is good for 5 minutes either side of the server's clock:
 * one captured on its way can be replayed for minutes, not for ever, while
 * clients a little off the server's time still get in.
 */
export function checkClockSkew(signedAt: Date, now: Date): void {
  if (Math.abs(now.getTime() - signedAt.getTime()) > MAX_CLOCK_SKEW_MS) {
    throw new SigV4Error(
      "RequestTimeTooSkewed",
      "the request time differs from the server's by more than 5 minutes",
    );
  }
}

function parseAmzDate(value: string): Date | null {
  if (!AMZ_DATE.test(value)) return null;
  const part = (from: number, to: number) => Number(value.slice(from, to));
  const year = part(0, 4);
  const monthIndex = part(4, 6) - 1;
  const day = part(6, 8);
  const hour = part(9, 11);
  const minute = part(11, 13);
  const second = part(13, 15);
  const date = new Date(Date.UTC(year, monthIndex, day, hour, minute, second));
  // Date.UTC rolls a part out of its range over into the next (month 13, minute 60, February 30)
  // and reads years 0-99 as 1900-1999: only a time that keeps every part as sent is one.
  const exact =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === monthIndex &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return exact ? date : null;
}

const AMZ_DATE = /^\d{8}T\d{6}Z$/;

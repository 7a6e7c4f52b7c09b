import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/** `::ffff:10.0.0.1`, as a dual-stack socket names an IPv4 peer, is 10.0.0.1. */
const plainAddress = (address: string): string => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");

/** Whether `entry` is an IP address or a CIDR block (`10.0.0.0/8`, `fd00::/8`): TRUSTED_PROXIES' entries. */
export function isAddressOrBlock(entry: string): boolean {
  const [address = "", bits, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * The address a request comes from, for the public pages' rate limit: the
 * socket's peer, unless that peer is one of `trustedProxies`; then the
 * right-most address of X-Forwarded-For that is not one of them (each proxy
 * appends the address it saw, so everything left of the first untrusted one
 * may have been written by the client). From an untrusted peer the header is
 * ignored, so a client cannot pick its own address.
 */
export function createClientAddress(trustedProxies: readonly string[]): (req: IncomingMessage) => string {
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const [address = "", bits] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) trusted.addAddress(plainAddress(address), type);
    else trusted.addSubnet(plainAddress(address), Number(bits), type);
  }
  const isTrusted = (address: string) => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 6 ? "ipv6" : "ipv4");
  };

  return (req) => {
    const peer = plainAddress(req.socket.remoteAddress ?? "");
    if (trustedProxies.length === 0 || !isTrusted(peer)) return peer;
    const header = req.headers["x-forwarded-for"];
    const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? ""))
      .split(",")
      .map((part) => plainAddress(part.trim()))
      .filter(Boolean);
    for (let i = forwarded.length - 1; i >= 0; i -= 1) {
      const address = forwarded[i]!;
      // Not an address at all: written by someone untrusted, so it is as far as the chain can be believed.
      if (isIP(address) === 0 || !isTrusted(address)) return address.slice(0, 64);
    }
    // Every hop is a trusted proxy: the left-most is the nearest to the client that is known.
    return forwarded[0] ?? peer;
  };
}

/**
 * What the public pages' rate limit counts a client address under: an IPv4
 * address itself, an IPv6 address its /64 (`2001:db8:1:2::/64`). A
 * subscriber is given a /64 or more and may send each request from another
 * address in it: counted per address, it would never reach the limit, and
 * each address would be a row of its own.
 */
export function rateLimitKeyOf(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = "", tail] = address.replace(/%.*$/, "").split("::");
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
  const [before, after] = [groupsOf(head), groupsOf(tail ?? "")];
  // An IPv4 address written at the end (`64:ff9b::192.0.2.1`) stands for two groups.
  const afterCount = after.length + (after.at(-1)?.includes(".") ? 1 : 0);
  const groups = [...before, ...Array<string>(8 - before.length - afterCount).fill("0"), ...after];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

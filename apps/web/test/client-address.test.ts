import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { createClientAddress, isAddressOrBlock, rateLimitKeyOf } from "../src/api/client-address.ts";

/** The two things the function reads of a request: its socket's peer and its X-Forwarded-For. */
const request = (peer: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
  }) as IncomingMessage;

describe("the client address of a public page's request", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    const addressOf = createClientAddress([]);
    expect(addressOf(request("203.0.113.9", "198.51.100.1"))).toBe("203.0.113.9");
    expect(addressOf(request("::ffff:203.0.113.9"))).toBe("203.0.113.9");
  });

  it("is the peer when the peer is not a trusted proxy", () => {
    const addressOf = createClientAddress(["10.0.0.0/8"]);
    expect(addressOf(request("203.0.113.9", "198.51.100.1"))).toBe("203.0.113.9");
  });

  it("behind trusted proxies, is the right-most address of X-Forwarded-For that is not one of them", () => {
    const addressOf = createClientAddress(["10.0.0.0/8", "fd00::/8"]);
    expect(addressOf(request("10.1.2.3", "198.51.100.1"))).toBe("198.51.100.1");
    expect(addressOf(request("::ffff:10.1.2.3", "1.2.3.4, 198.51.100.1, 10.9.9.9"))).toBe("198.51.100.1");
    expect(addressOf(request("fd00::1", "2001:db8::7, fd00::2"))).toBe("2001:db8::7");
    // Every hop trusted: the left-most, the nearest to the client that is known.
    expect(addressOf(request("10.1.2.3", "10.0.0.5, 10.0.0.6"))).toBe("10.0.0.5");
    // No header: the proxy itself.
    expect(addressOf(request("10.1.2.3"))).toBe("10.1.2.3");
    // Something that is no address, written by whoever stood there, ends the chain as one client.
    expect(addressOf(request("10.1.2.3", "198.51.100.1, not-an-ip"))).toBe("not-an-ip");
  });

  it("takes IPs and CIDR blocks as TRUSTED_PROXIES entries, nothing else", () => {
    for (const entry of ["10.0.0.1", "10.0.0.0/8", "::1", "fd00::/8", "0.0.0.0/0"])
      expect(isAddressOrBlock(entry), entry).toBe(true);
    for (const entry of ["10.0.0.0/33", "fd00::/129", "proxy.local", "10.0.0.0/8/1", "10.0.0.0/x", ""]) {
      expect(isAddressOrBlock(entry), entry).toBe(false);
    }
  });
});

describe("what the public pages' rate limit counts a client under", () => {
  it("an IPv4 address itself; an IPv6 address its /64, however it is written", () => {
    expect(rateLimitKeyOf("203.0.113.9")).toBe("203.0.113.9");
    for (const address of [
      "2001:db8:1:2::1",
      "2001:0db8:0001:0002:ffff:0:0:7",
      "2001:DB8:1:2:a:b:c:d",
      "2001:db8:1:2::9%eth0",
    ])
      expect(rateLimitKeyOf(address), address).toBe("2001:db8:1:2::/64");
    expect(rateLimitKeyOf("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(rateLimitKeyOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(rateLimitKeyOf("::1")).toBe("0:0:0:0::/64");
    expect(rateLimitKeyOf("64:ff9b:1:2::192.0.2.1")).toBe("64:ff9b:1:2::/64");
    // What no proxy can vouch for stays as it was written.
    expect(rateLimitKeyOf("not-an-ip")).toBe("not-an-ip");
  });
});

import { describe, expect, it } from "vitest";
import { readableAddress } from "./ip-address.server.ts";

describe("readableAddress", () => {
  it.each([
    // better-auth stores IPv6 addresses written out in full.
    ["0000:0000:0000:0000:0000:0000:0000:0001", "::1"],
    ["2001:0db8:0000:0000:0000:0000:0002:0001", "2001:db8::2:1"],
    ["2001:0DB8:0000:0000:0001:0000:0000:0001", "2001:db8::1:0:0:1"],
    ["0000:0000:0000:0000:0000:0000:0000:0000", "::"],
    ["fe80:0000:0000:0000:0202:b3ff:fe1e:8329", "fe80::202:b3ff:fe1e:8329"],
    // RFC 5952: a lone zero group is not shortened, the first of two equal runs is.
    ["2001:0db8:0000:0001:0001:0001:0001:0001", "2001:db8:0:1:1:1:1:1"],
    ["2001:0000:0000:0001:0000:0000:0000:0001", "2001:0:0:1::1"],
    ["0001:0000:0000:0001:0000:0000:0001:0001", "1::1:0:0:1:1"],
  ])("shortens the IPv6 address %s to %s", (stored, shown) => {
    expect(readableAddress(stored)).toBe(shown);
  });

  it.each([
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["0000:0000:0000:0000:0000:ffff:7f00:0001", "127.0.0.1"],
    ["::FFFF:C000:0201", "192.0.2.1"],
  ])("shows the IPv4-mapped address %s as the IPv4 address %s", (stored, shown) => {
    expect(readableAddress(stored)).toBe(shown);
  });

  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["203.0.113.7", "203.0.113.7"],
    ["::1", "::1"],
    ["", ""],
    // Not an address (an old row, a zone index): shown as it was stored rather than guessed at.
    ["unknown", "unknown"],
    ["fe80::1%eth0", "fe80::1%eth0"],
  ])("leaves %j as it is", (stored, shown) => {
    expect(readableAddress(stored)).toBe(shown);
  });
});

import { isIPv4, isIPv6, SocketAddress } from "node:net";

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/;

/**
 * A client address as a person reads it. better-auth stores IPv6 addresses written out in full
 * (`0000:0000:0000:0000:0000:0000:0000:0001`); shown, they take the short form of RFC 5952 (`::1`), which the
 * system's own inet_ntop gives through node:net, and an IPv4 address carried in IPv6 (`::ffff:127.0.0.1`) is
 * shown as IPv4. Anything else (an empty value, a zone index) is shown as stored.
 */
export function readableAddress(stored: string): string {
  if (isIPv4(stored) || !isIPv6(stored)) return stored;
  const short = SocketAddress.parse(`[${stored}]:0`)?.address;
  if (!short) return stored;
  const mapped = MAPPED_IPV4.exec(short)?.[1];
  return mapped && isIPv4(mapped) ? mapped : short;
}

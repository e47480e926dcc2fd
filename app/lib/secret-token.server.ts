import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * One-time secrets handed to a person (reset and confirmation links, recovery codes): 256 random bits, stored only
 * as their SHA-256. A fast hash is enough here, unlike for passwords: the secret is random, not guessable.
 */
export function createSecretToken(bytes = 32): { token: string; hash: string } {
  const token = randomBytes(bytes).toString("base64url");
  return { token, hash: hashSecretToken(token) };
}

export function hashSecretToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Compares two hex hashes in constant time (equal length by construction). */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

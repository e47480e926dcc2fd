/**
 * What the contact page and its action share without any library: limits, the honeypot's name and the proof of
 * work's rule (the browser's solver in app/components/contact/proof-of-work.ts, the check in contact-guard.server.ts).
 */
export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000 } as const;

/**
 * The honeypot: a field people never see or reach (hidden, out of the tab order, aria-hidden), which form-filling
 * bots fill because it looks like one they know. Its name is plausible on purpose.
 */
export const HONEYPOT_FIELD = "website";

/**
 * Proof of work: the browser finds a nonce such that SHA-256(challenge + ":" + nonce) starts with this many zero
 * bits (about 16,000 hashes on average: well under a second in a browser, done while the visitor types; a bulk
 * sender pays it for every message). Small on purpose: a slow phone must not keep a person waiting.
 */
export const POW_BITS = 14;
/** The nonce as sent: decimal digits. */
export const POW_NONCE_PATTERN = /^\d{1,15}$/;

/** The text the proof of work hashes. */
export function powInput(challenge: string, nonce: string): string {
  return `${challenge}:${nonce}`;
}

/** The challenge a token carries (`<issued at>.<challenge>.<signature>`): the browser needs no more of it. */
export function challengeOf(token: string): string {
  return token.split(".")[1] ?? "";
}

/** How many zero bits a digest starts with. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

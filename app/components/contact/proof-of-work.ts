import { leadingZeroBits, powInput } from "#app/domains/contact/contact-fields.ts";

/** Digests asked for at once: WebCrypto answers each asynchronously, so a batch keeps it busy. */
const BATCH = 256;

/**
 * Finds the nonce the contact form's proof of work asks for (contact-fields.ts), with the browser's own WebCrypto:
 * nothing is fetched from anywhere. Loaded only by the contact page, when it opens. Stops (returning null) when
 * `signal` aborts: a new token, or the visitor left the page.
 */
export async function solveProofOfWork(challenge: string, bits: number, signal: AbortSignal): Promise<string | null> {
  const encoder = new TextEncoder();
  for (let start = 0; !signal.aborted; start += BATCH) {
    const nonces = Array.from({ length: BATCH }, (_, index) => String(start + index));
    const digests = await Promise.all(
      nonces.map((nonce) => crypto.subtle.digest("SHA-256", encoder.encode(powInput(challenge, nonce)))),
    );
    const found = digests.findIndex((digest) => leadingZeroBits(new Uint8Array(digest)) >= bits);
    if (found >= 0) return nonces[found] ?? null;
  }
  return null;
}

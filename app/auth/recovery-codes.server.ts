import { randomInt } from "node:crypto";
import { hashSecretToken } from "#app/lib/secret-token.server.ts";

/**
 * Recovery codes for two-factor sign-in, stored only as their SHA-256 (like every one-time secret of the site).
 *
 * better-auth's two-factor plugin keeps a user's backup codes in one column (`twoFactor.backupCodes`) as a JSON
 * list that it "encrypts" and "decrypts" through functions we may supply (`storeBackupCodes: {encrypt, decrypt}`),
 * and it checks a code by looking the *submitted* string up in the decrypted list. We hand it hashes both ways:
 * `encrypt` turns every plain code into its hash (and keeps hashes that are already hashed, since the plugin also
 * re-encodes the remaining list after a code is used), `decrypt` returns the list of hashes unchanged. So a code
 * only matches when the submitted value is its hash, which is why every caller goes through `recoveryCodeInput`
 * first: the plugin's HTTP handler is not mounted (auth.server.ts), and our only caller (routes/auth.two-factor.tsx)
 * always hashes what the person typed, so a stored hash itself is never accepted as a code.
 */

export const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: the codes are read off paper and typed by hand. 31 symbols, 10 of them: about 50 bits each.
const ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
const CODE_LENGTH = 10;
const HASH_PATTERN = /^[0-9a-f]{64}$/;

/** Ten new codes in the form `abcde-fghjk`. */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = "";
    for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/**
 * What a person typed, in the form the codes are printed (case, spaces and the dash do not matter), or null when
 * it cannot be a recovery code at all.
 */
export function normalizeRecoveryCode(input: string): string | null {
  const compact = input.toLowerCase().replace(/[\s-]/g, "");
  if (compact.length !== CODE_LENGTH || [...compact].some((c) => !ALPHABET.includes(c))) return null;
  return `${compact.slice(0, 5)}-${compact.slice(5)}`;
}

/** The value to hand to the plugin's `verifyBackupCode` for what a person typed: the hash of the normalised code. */
export function recoveryCodeInput(input: string): string | null {
  const code = normalizeRecoveryCode(input);
  return code === null ? null : hashSecretToken(code);
}

/** The plugin's `storeBackupCodes.encrypt`: a JSON list of codes in, a JSON list of their hashes out. */
export function hashRecoveryCodeList(json: string): string {
  const codes = JSON.parse(json) as unknown;
  if (!Array.isArray(codes)) throw new Error("Recovery codes must be a list");
  return JSON.stringify(
    codes.map((code) => {
      const text = String(code);
      return HASH_PATTERN.test(text) ? text : hashSecretToken(text);
    }),
  );
}

/** The plugin's `storeBackupCodes.decrypt`: the stored list of hashes, as it is (hashes cannot be undone). */
export function readRecoveryCodeList(stored: string): string {
  return stored;
}

/** How many codes are left in a stored list. */
export function countRecoveryCodes(stored: string | null | undefined): number {
  if (!stored) return 0;
  try {
    const list = JSON.parse(stored) as unknown;
    return Array.isArray(list) ? list.length : 0;
  } catch {
    return 0;
  }
}

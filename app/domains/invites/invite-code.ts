import { randomInt } from "node:crypto";

// No 0/O, 1/I/L or U/V pairs: a code read aloud or typed from paper survives.
export const INVITE_ALPHABET = "ABCDEFGHJKMNPQRSTWXYZ23456789";
const GROUPS = 4;
const GROUP_LENGTH = 4;

/** A new code such as `KX7M-Q2PA-9HTZ-R4WN`: 16 symbols from 29, about 77 bits of entropy. */
export function generateInviteCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = "";
    for (let i = 0; i < GROUP_LENGTH; i++) group += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join("-");
}

/** Case, spaces and dashes do not matter when a code is typed in. */
export function normalizeInviteCode(input: string): string {
  const compact = input.toUpperCase().replace(/[^A-Z0-9]/g, "");
  return compact.match(/.{1,4}/g)?.join("-") ?? "";
}

/**
 * Hostile values for the fuzz test, as they travel on the wire: percent-encoded, so that bytes no browser
 * would send (a lone surrogate's UTF-8 form, invalid UTF-8) reach the server exactly as written.
 */

/** Every one of these is sent for every field; together they cover what the brief of issue 9 lists. */
export const NASTY_VALUES: readonly string[] = [
  "",
  "%00",
  "a%00b",
  "%01%02%03",
  "%1B%5B31mred",
  "%7F",
  "%C2%80",
  "%C2%9Fx",
  "line%0Abreak",
  "cr%0Dlf%0D%0A",
  "%09tab",
  "%ED%A0%80",
  "x%ED%BF%BFy",
  "%FF",
  "%C0%AF%FE",
  "%E2%80%AEevil%E2%80%AC",
  "zero%E2%80%8Bwidth%EF%BB%BF",
  "e%CC%81",
  "%F0%9F%98%80",
  "'%20OR%201%3D1--%20%3B%20DROP%20TABLE%20links",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E%26amp%3B",
  "%25%5F%5C%22",
  "..%2F..%2Fetc%2Fpasswd",
  "-1",
  "99999999999999999999",
  "1e309",
  "NaN",
  "__proto__",
  "a".repeat(5000),
  "%E4%B8%AD".repeat(40_000),
];

/** Sent for every field, whatever the sample: the values that broke things before. */
export const ALWAYS: readonly string[] = [
  "%00",
  "a%00b",
  "%C2%80",
  "%ED%A0%80",
  "%FF",
  "line%0Abreak",
  "%E4%B8%AD".repeat(40_000),
];

/** Every field's values: the ones above, a seeded sample of the rest, and a few generated ones. */
export function valuesForField(random: () => number, sample = 6, generated = 2): string[] {
  const rest = NASTY_VALUES.filter((value) => !ALWAYS.includes(value));
  const picked = new Set<string>();
  while (picked.size < Math.min(sample, rest.length)) picked.add(rest[Math.floor(random() * rest.length)] ?? "");
  return [...ALWAYS, ...picked, ...randomValues(random, generated)];
}

/** A small deterministic generator (mulberry32), so a failure can be replayed exactly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
const utf8 = (text: string) => [...Buffer.from(text, "utf8")].map(hex).join("");

/** Pieces a random value is made of: harmless text mixed with every kind of trouble. */
const PIECES: ((random: () => number) => string)[] = [
  (random) => encodeURIComponent(String.fromCharCode(0x21 + Math.floor(random() * 94))),
  (random) => encodeURIComponent("abcdefghij ÄÖÜß"[Math.floor(random() * 15)] ?? "a"),
  (random) => hex(Math.floor(random() * 0x20)),
  (random) => utf8(String.fromCharCode(0x80 + Math.floor(random() * 0x20))),
  (random) => `%ED${hex(0xa0 + Math.floor(random() * 0x20))}${hex(0x80 + Math.floor(random() * 0x40))}`,
  (random) => hex(0x80 + Math.floor(random() * 0x80)),
  (random) => utf8(["\u200b", "\u200e", "\u202e", "\ufeff", "\u2028", "\u0301"][Math.floor(random() * 6)] ?? ""),
  () => utf8("😀"),
  () => "%00",
];

/** `count` random wire values from the generator. */
export function randomValues(random: () => number, count: number): string[] {
  const values: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(random() * 40);
    let value = "";
    for (let j = 0; j < length; j++) value += PIECES[Math.floor(random() * PIECES.length)]?.(random) ?? "";
    values.push(value);
  }
  return values;
}

/** The raw bytes a percent-encoded wire value stands for (for multipart bodies, which are not encoded). */
export function wireBytes(value: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const char = value[i] ?? "";
    if (char === "%" && /^[0-9a-fA-F]{2}$/.test(value.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, "utf8"));
    }
  }
  return Buffer.from(bytes);
}

/** A form body from already encoded fields (a field given as an array is sent once per value). */
export function wireForm(fields: Record<string, string | string[]>): string {
  return Object.entries(fields)
    .flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).map((one) => `${encodeURIComponent(name)}=${one}`),
    )
    .join("&");
}

/** Encodes plain text for `wireForm`. */
export const plain = (text: string) => encodeURIComponent(text);

/**
 * Control characters other than tab and line breaks have no business in anything an admin types or a form
 * sends back; PostgreSQL cannot even store a NUL byte in a text column ("invalid byte sequence").
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is exactly what it looks for
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** For zod's `.refine`: true when the text holds no control characters. */
export function withoutControlCharacters(value: string): boolean {
  return !CONTROL_CHARACTERS.test(value);
}

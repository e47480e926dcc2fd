export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

// Passwords of ten or more characters that appear near the top of leaked-password lists;
// shorter ones are already refused by the length rule.
const commonPasswords = new Set([
  "1234567890", "0123456789", "9876543210", "0987654321", "12345678910", "123456789a", "a123456789",
  "1234567890a", "123456789q", "123456789z", "1234567890q", "12345678901", "123123123123", "1231231231",
  "1111111111", "0000000000", "1212121212", "1122334455", "5555555555", "7777777777", "6666666666",
  "qwertyuiop", "qwertyuiop1", "qwertyuiop123", "qwerty1234", "qwerty12345", "qwerty123456", "1234qwerty",
  "12345qwert", "qwertzuiop", "asdfghjkl1", "asdfghjkl123", "asdfghjkl;", "zxcvbnm123", "1qaz2wsx3edc",
  "1q2w3e4r5t", "1q2w3e4r5t6y", "q1w2e3r4t5", "q1w2e3r4t5y6", "zaq12wsxcde", "zaq1zaq1zaq1", "1qazxsw23edc",
  "password12", "password01", "password123", "password1234", "password12345", "password!!", "password1!",
  "passw0rd123", "p@ssw0rd123", "p@ssword123", "passwordpassword", "mypassword", "mypassword1", "mypassword123",
  "iloveyou12", "iloveyou123", "iloveyou1234", "iloveyou!!", "princess123", "princess12", "football123",
  "football12", "baseball123", "monkey12345", "sunshine123", "sunshine12", "superman123", "batman1234",
  "welcome123", "welcome1234", "welcome2024", "welcome2025", "welcome2026", "letmein123", "letmein1234",
  "trustno1234", "michael123", "starwars123", "starwars12", "administrator", "administrator1", "admin12345",
  "admin123456", "adminadmin", "changeme123", "changeme1234", "abcdefghij", "abcdefghijk", "abc1234567",
  "abcd123456", "abcde12345", "abcdef1234", "1234abcd1234", "aaaaaaaaaa", "computer123", "internet123",
  "whatever123", "dragon1234", "master12345", "shadow1234", "hello12345", "helloworld", "helloworld1",
  "helloworld123", "chocolate1", "chocolate123", "butterfly1", "basketball", "basketball1", "playstation",
  "playstation1", "liverpool1", "liverpool123", "manchester", "manchester1", "pokemon123", "minecraft1",
  "minecraft123", "fuckyou123", "jesus12345", "blink18218", "1qaz!qaz1qaz", "qazwsxedc1", "qazwsxedcrfv",
  "qweasdzxc1", "qweasdzxc123", "passwort123", "passwort1234", "hallo12345", "hallo123456", "schalke04!",
  "bayern1900", "fussball123", "geheim1234", "sommer2024", "sommer2025", "winter2024", "winter2025",
]);

export type PasswordProblem = "required" | "tooShort" | "tooLong" | "common";

/** The first rule a new password breaks, or null when it is acceptable. */
export function passwordProblem(password: string, email?: string): PasswordProblem | null {
  if (!password) return "required";
  if (password.length < PASSWORD_MIN_LENGTH) return "tooShort";
  if (password.length > PASSWORD_MAX_LENGTH) return "tooLong";
  const lower = password.toLowerCase();
  if (commonPasswords.has(lower)) return "common";
  if (/^(.)\1+$/.test(password)) return "common";
  if (email && (lower === email.toLowerCase() || lower === email.split("@")[0]?.toLowerCase())) return "common";
  return null;
}

import { describe, expect, it } from "vitest";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from "#app/auth/password-policy.ts";

describe("password policy", () => {
  it("needs at least 10 and at most 128 characters", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(10);
    expect(PASSWORD_MAX_LENGTH).toBe(128);
    expect(passwordProblem("")).toBe("required");
    expect(passwordProblem("Tr0ub4dor")).toBe("tooShort");
    expect(passwordProblem("Tr0ub4dor&")).toBeNull();
    expect(passwordProblem("x7".repeat(64))).toBeNull();
    expect(passwordProblem(`${"x7".repeat(64)}!`)).toBe("tooLong");
  });

  it.each(["1234567890", "qwertyuiop", "Password123", "PASSWORD123", "passwort123", "welcome2025"])(
    "refuses the common password %j",
    (password) => {
      expect(passwordProblem(password)).toBe("common");
    },
  );

  it("refuses one character repeated, and the e-mail address or its local part", () => {
    expect(passwordProblem("zzzzzzzzzzzz")).toBe("common");
    expect(passwordProblem("jo.photographer", "Jo.Photographer@example.com")).toBe("common");
    expect(passwordProblem("jo.photographer@example.com", "jo.photographer@example.com")).toBe("common");
  });

  it("accepts a long passphrase", () => {
    expect(passwordProblem("correct horse battery staple")).toBeNull();
  });
});

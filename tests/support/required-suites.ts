import { it } from "vitest";

/** CI exports CI (.ci/run); there a suite that should run but cannot is a failure, never a silent skip. */
export const inCi = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false";

/**
 * For `describe.skipIf(...)`/`it.skipIf(...)`: whether to skip a suite whose needs (a binary, root, a server) are
 * missing. Off CI a missing need is a reported skip; in CI it adds a failing test that names the need, so a
 * machine that lost it shows up red instead of quietly running less.
 */
export function skipUnlessAvailable(available: boolean, need: string): boolean {
  if (available) return false;
  if (inCi) {
    it(`has what it needs in CI: ${need}`, () => {
      throw new Error(`This suite must run in CI, but the machine lacks ${need}.`);
    });
  }
  return true;
}

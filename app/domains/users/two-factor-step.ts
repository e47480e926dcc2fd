/** The second step of a sign-in with two-factor sign-in on, keeping where the person was going. */
export const TWO_FACTOR_STEP_PATH = "/auth/two-factor";

export function twoFactorStepPath(redirectTo: string): string {
  return redirectTo === "/"
    ? TWO_FACTOR_STEP_PATH
    : `${TWO_FACTOR_STEP_PATH}?redirectTo=${encodeURIComponent(redirectTo)}`;
}

/** A 6-digit code from an authenticator app, spaces forgiven ("123 456" as some apps show it); else null. */
export function normalizeTotpCode(input: string): string | null {
  const compact = input.replace(/\s/g, "");
  return /^\d{6}$/.test(compact) ? compact : null;
}

/** A TOTP key in groups of four, as authenticator apps show it and people type it. */
export function groupSecret(secret: string): string {
  return secret.replace(/=+$/, "").replace(/(.{4})(?=.)/g, "$1 ");
}

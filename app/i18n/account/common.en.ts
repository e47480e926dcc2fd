/** The account pages' frame: title and navigation. */
export const accountCommonEn = {
  "account.title": "Your account",
  "account.nav.label": "Account sections",
  "account.nav.overview": "Password and profile",
  "account.nav.email": "E-mail address",
  "account.nav.sessions": "Sessions",
  "account.nav.twoFactor": "Two-factor sign-in",
} as const;

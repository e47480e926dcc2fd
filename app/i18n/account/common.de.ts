import type { accountCommonEn } from "./common.en.ts";

export const accountCommonDe = {
  "account.title": "Ihr Konto",
  "account.nav.label": "Kontobereiche",
  "account.nav.overview": "Passwort und Profil",
  "account.nav.email": "E-Mail-Adresse",
  "account.nav.sessions": "Sitzungen",
  "account.nav.twoFactor": "Zwei-Faktor-Anmeldung",
} satisfies Record<keyof typeof accountCommonEn, string>;

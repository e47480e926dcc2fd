import type { Language } from "./i18n.ts";

/**
 * The second sign-in step's strings (routes/auth.two-factor.tsx), sent by its loader like the account pages' ones:
 * they stay out of every other page's JavaScript.
 */
export const twoFactorStepEn = {
  title: "Two-factor sign-in",
  intro: "Your password was right. Now enter the 6-digit code your authenticator app shows for this site.",
  codeLabel: "Code from the app",
  codeHint: "6 digits. The code changes every 30 seconds.",
  submit: "Sign in",
  working: "Checking…",
  recoveryHeading: "No access to your app?",
  recoveryIntro: "Enter one of the recovery codes you saved when you turned two-factor sign-in on. Each works once.",
  recoveryLabel: "Recovery code",
  recoveryHint: "10 letters and digits, such as abcde-fghjk.",
  recoverySubmit: "Sign in with a recovery code",
  failed: "Sign in failed",
  wrongCode: "The code is not right. Check the time on your phone and try the newest code.",
  wrongRecoveryCode: "This recovery code is not right or has been used already.",
  badCode: "Enter the 6 digits your app shows.",
  badRecoveryCode: "A recovery code has 10 letters and digits, such as abcde-fghjk.",
  expired: "Your sign-in has expired",
  expiredText: "Too much time went by since you entered your password, or too many codes were wrong. Sign in again.",
  startAgain: "Sign in again",
} as const;

export type TwoFactorStepStrings = Record<keyof typeof twoFactorStepEn, string>;

export const twoFactorStepDe = {
  title: "Zwei-Faktor-Anmeldung",
  intro:
    "Ihr Passwort war richtig. Geben Sie jetzt den sechsstelligen Code ein, den Ihre Authenticator-App für diese Website anzeigt.",
  codeLabel: "Code aus der App",
  codeHint: "6 Ziffern. Der Code wechselt alle 30 Sekunden.",
  submit: "Anmelden",
  working: "Wird geprüft …",
  recoveryHeading: "Kein Zugriff auf Ihre App?",
  recoveryIntro:
    "Geben Sie einen der Wiederherstellungscodes ein, die Sie beim Einschalten der Zwei-Faktor-Anmeldung gespeichert haben. Jeder gilt einmal.",
  recoveryLabel: "Wiederherstellungscode",
  recoveryHint: "10 Buchstaben und Ziffern, etwa abcde-fghjk.",
  recoverySubmit: "Mit Wiederherstellungscode anmelden",
  failed: "Anmeldung fehlgeschlagen",
  wrongCode: "Der Code stimmt nicht. Prüfen Sie die Uhrzeit Ihres Telefons und nehmen Sie den neuesten Code.",
  wrongRecoveryCode: "Dieser Wiederherstellungscode stimmt nicht oder wurde schon verwendet.",
  badCode: "Geben Sie die 6 Ziffern ein, die Ihre App anzeigt.",
  badRecoveryCode: "Ein Wiederherstellungscode hat 10 Buchstaben und Ziffern, etwa abcde-fghjk.",
  expired: "Ihre Anmeldung ist abgelaufen",
  expiredText:
    "Seit der Eingabe Ihres Passworts ist zu viel Zeit vergangen, oder zu viele Codes waren falsch. Melden Sie sich erneut an.",
  startAgain: "Erneut anmelden",
} satisfies TwoFactorStepStrings;

export function twoFactorStepStrings(lang: Language): TwoFactorStepStrings {
  return lang === "de" ? twoFactorStepDe : twoFactorStepEn;
}

import type { accountEmailEn } from "./email.en.ts";

/** Kontoseiten: E-Mail-Adresse. */
export const accountEmailDe = {
  "account.email.title": "E-Mail-Adresse",
  "account.email.current": "Die Adresse Ihres Kontos ist {email}.",
  "account.email.intro":
    "Um sie zu ändern, geben Sie die neue Adresse und Ihr Passwort ein. Ein Link geht an die neue Adresse; geändert wird erst, wenn Sie ihm folgen. Ihre alte Adresse erhält dann eine Mitteilung.",
  "account.email.newEmail": "Neue E-Mail-Adresse",
  "account.email.password": "Aktuelles Passwort",
  "account.email.submit": "Bestätigungslink senden",
  "account.email.working": "Bitte warten…",
  "account.email.pending": "Ein Bestätigungslink wurde an {email} gesendet. Er gilt bis {until}.",
  "account.email.sent": "Bestätigungslink gesendet",
  "account.email.sentText": "Öffnen Sie den Link in der E-Mail an {email}, um die Änderung abzuschließen.",
  "account.email.failed": "Die Adresse wurde nicht geändert",
  "account.email.error.form":
    "Das Formular war unvollständig. Bitte laden Sie die Seite neu und versuchen Sie es erneut.",
  "account.email.error.emailRequired": "Bitte geben Sie die neue E-Mail-Adresse ein.",
  "account.email.error.emailInvalid": "Bitte geben Sie eine gültige E-Mail-Adresse ein.",
  "account.email.error.sameEmail": "Das ist bereits die Adresse Ihres Kontos.",
  "account.email.error.emailTaken": "Diese Adresse wird bereits von einem anderen Konto verwendet.",
  "account.email.error.passwordRequired": "Bitte geben Sie Ihr aktuelles Passwort ein.",
  "account.email.error.wrongPassword": "Das Passwort ist nicht korrekt.",
  "account.confirmEmail.title": "Neue E-Mail-Adresse bestätigen",
  "account.confirmEmail.intro": "Die Adresse Ihres Kontos von {email} zu {newEmail} ändern?",
  "account.confirmEmail.passwordHint": "Ihr Passwort beweist, dass das Konto Ihnen gehört.",
  "account.confirmEmail.submit": "Änderung bestätigen",
  "account.confirmEmail.done": "E-Mail-Adresse geändert",
  "account.confirmEmail.doneText": "Die Adresse Ihres Kontos ist jetzt {email}. Melden Sie sich ab jetzt damit an.",
  "account.confirmEmail.invalid": "Dieser Link funktioniert nicht",
  "account.confirmEmail.invalidText":
    "Der Link ist abgelaufen, wurde schon benutzt oder durch einen neueren ersetzt. Einen neuen fordern Sie auf Ihrer Kontoseite an.",
  "account.confirmEmail.toAccount": "Zu Ihrem Konto",
} satisfies Record<keyof typeof accountEmailEn, string>;

import type { recoveryEn } from "./recovery.en.ts";

export const recoveryDe = {
  "recovery.forgot.title": "Passwort vergessen",
  "recovery.forgot.heading": "Passwort zurücksetzen",
  "recovery.forgot.intro":
    "Geben Sie die E-Mail-Adresse Ihres Kontos ein. Gibt es dazu ein Konto, geht ein Link für ein neues Passwort an diese Adresse.",
  "recovery.forgot.submit": "Link senden",
  "recovery.forgot.sent": "Sehen Sie in Ihr Postfach",
  "recovery.forgot.sentText":
    "Wenn es ein Konto mit der Adresse {email} gibt, ist ein Link zum Zurücksetzen des Passworts unterwegs. Er funktioniert einmal, innerhalb einer Stunde.",
  "recovery.forgot.outbox":
    "Diese Website versendet keine E-Mails: Es ist kein Mailserver eingerichtet, daher liegt der Link im Postausgang der Website. Ist es Ihre Website, zeigen Sie die neueste Mail dort mit diesem Befehl auf dem Server an:",
  "recovery.forgot.failed": "Der Link konnte nicht angefordert werden",
  "recovery.backToSignIn": "Zurück zur Anmeldung",
  "recovery.reset.title": "Neues Passwort wählen",
  "recovery.reset.heading": "Neues Passwort wählen",
  "recovery.reset.intro": "Für das Konto {email}. Danach werden alle daran angemeldeten Geräte abgemeldet.",
  "recovery.reset.newPassword": "Neues Passwort",
  "recovery.reset.submit": "Neues Passwort speichern",
  "recovery.reset.failed": "Das Passwort wurde nicht geändert",
  "recovery.reset.done": "Passwort geändert",
  "recovery.reset.doneText": "Alle Geräte wurden abgemeldet. Bitte melden Sie sich mit Ihrem neuen Passwort an.",
  "recovery.reset.signIn": "Anmelden",
  "recovery.reset.invalid": "Dieser Link funktioniert nicht",
  "recovery.reset.invalidText":
    "Der Link ist abgelaufen, wurde schon benutzt oder durch einen neueren ersetzt. Fordern Sie einen neuen Link an.",
  "recovery.reset.requestNew": "Neuen Link anfordern",
} satisfies Record<keyof typeof recoveryEn, string>;

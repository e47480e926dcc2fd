import type { contactEn } from "./contact.en.ts";

export const contactDe = {
  "contact.title": "Kontakt",
  "contact.intro":
    "Schreiben Sie dem Betreiber dieser Website. Ihre Nachricht wird ihm per Mail zugestellt; Ihre Adresse dient nur der Antwort. Sonst wird nichts über Sie erfasst.",
  "contact.name": "Ihr Name",
  "contact.email": "Ihre E-Mail-Adresse",
  "contact.emailHint": "Hierhin geht die Antwort.",
  "contact.message": "Ihre Nachricht",
  "contact.messageHint": "Höchstens {max} Zeichen.",
  "contact.honeypot": "Dieses Feld bitte leer lassen",
  "contact.submit": "Nachricht senden",
  "contact.sending": "Wird gesendet…",
  "contact.preparing": "Die Nachricht wird zum Senden vorbereitet…",
  "contact.noScript":
    "Ohne JavaScript wird Ihre Nachricht ebenfalls angenommen, auf diesem Weg aber nur wenige pro Stunde.",
  "contact.sent": "Danke, Ihre Nachricht wurde gesendet",
  "contact.sentText": "Der Betreiber liest sie und schreibt, falls eine Antwort nötig ist, an {email}.",
  "contact.sendAnother": "Weitere Nachricht schreiben",
  "contact.failed": "Die Nachricht wurde nicht gesendet",
  "contact.fixFields": "Bitte korrigieren Sie die markierten Felder. Ihr Text ist noch da.",
  "contact.error.required": "Bitte füllen Sie dieses Feld aus.",
  "contact.error.tooLong": "Höchstens {max} Zeichen.",
  "contact.error.control": "Dieser Text enthält Zeichen, die nicht gesendet werden können.",
  "contact.error.lineBreak": "Bitte nur eine Zeile.",
  "contact.error.invalid": "Das konnte nicht gelesen werden. Bitte geben Sie es noch einmal ein.",
  "contact.error.emailInvalid": "Das ist keine E-Mail-Adresse. Sie sieht so aus: name@example.com.",
  "contact.error.expired":
    "Diese Seite war länger als {hours} Stunden geöffnet, daher wurde die Nachricht nicht gesendet. Ihr Text ist noch da: Bitte senden Sie ihn noch einmal.",
  "contact.error.tooMany":
    "Von hier wurden zu viele Nachrichten gesendet. Bitte versuchen Sie es in {minutes} Minuten wieder.",
} satisfies Record<keyof typeof contactEn, string>;

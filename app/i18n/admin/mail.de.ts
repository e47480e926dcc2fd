import type { adminMailEn } from "./mail.en.ts";

export const adminMailDe = {
  "admin.section.outbox": "Postausgang",
  "admin.section.outboxText": "Mails, die die Website abgelegt statt gesendet hat, hier lesbar.",
  "admin.audit.areaName.mail": "Mail",

  // Postausgang
  "admin.outbox.introOutbox":
    "SMTP_URL ist nicht gesetzt, daher sendet die Website keine Mails: Jede Mail wird stattdessen hier abgelegt (in der Datenbank, so dass jeder Serverprozess sie zeigt) und nach 30 Tagen gelöscht. Öffnen Sie eine, um sie zu lesen, etwa einen angeforderten Link zum Zurücksetzen eines Passworts.",
  "admin.outbox.introSmtp":
    "Mails werden über SMTP gesendet ({smtp}). Der Postausgang wird nur genutzt, solange SMTP_URL nicht gesetzt ist; früher abgelegte Mails stehen hier, bis sie 30 Tage nach dem Ablegen gelöscht werden.",
  "admin.outbox.count": "{count} Mails im Postausgang.",
  "admin.outbox.countLimited": "{count} Mails im Postausgang; die neuesten {shown} werden gezeigt.",
  "admin.outbox.empty": "Der Postausgang ist leer.",
  "admin.outbox.caption": "Abgelegte Mails, neueste zuerst",
  "admin.outbox.column.when": "Abgelegt",
  "admin.outbox.column.to": "An",
  "admin.outbox.column.kind": "Art",
  "admin.outbox.column.subject": "Betreff",
  "admin.outbox.back": "Zurück zum Postausgang",
  "admin.outbox.headers": "Kopfzeilen",
  "admin.outbox.header.from": "Von",
  "admin.outbox.header.to": "An",
  "admin.outbox.header.date": "Datum",
  "admin.outbox.header.subject": "Betreff",
  "admin.outbox.header.language": "Sprache",
  "admin.outbox.header.kind": "Art",
  "admin.outbox.header.id": "ID",
  "admin.outbox.textPart": "Textteil",
  "admin.outbox.htmlPart": "HTML-Teil",
  "admin.outbox.htmlPartHint":
    "So, wie ein Mailprogramm ihn zeigt. Nichts darin kann etwas ausführen oder laden, und seine Links öffnen sich hier nicht: Kopieren Sie sie aus dem Textteil.",
  "admin.outbox.htmlFrameTitle": "Der HTML-Teil der Mail",
  "admin.outbox.noHtml": "Diese Mail hat keinen HTML-Teil.",

  // Übersicht
  "admin.mail.heading": "Mail",
  "admin.mail.smtp": "Mails werden über SMTP ({smtp}) von {from} gesendet.",
  "admin.mail.outboxOnly":
    "Nur Postausgang: SMTP_URL ist nicht gesetzt, daher werden Mails (Passwort-Links, Einladungen) im Postausgang abgelegt statt gesendet. Lesen Sie sie dort.",
  "admin.mail.openOutbox": "Postausgang öffnen",
  "admin.mail.failuresHeading": "Fehlgeschlagene Zustellungen",
  "admin.mail.failuresIntro":
    "Diese Mails konnten in den letzten 7 Tagen nicht zugestellt werden. Prüfen Sie SMTP_URL und den Mailserver; wer eine angefordert hat, muss es vielleicht erneut tun.",
  "admin.mail.failuresCaption": "Nicht zugestellte Mails, neueste zuerst",
  "admin.mail.column.when": "Wann",
  "admin.mail.column.to": "An",
  "admin.mail.column.kind": "Art",
  "admin.mail.column.reason": "Grund",
  "admin.mail.dismiss": "Diese Hinweise ausblenden",
  "admin.mail.dismissed": "Die Hinweise auf fehlgeschlagene Zustellungen sind ausgeblendet.",
  "admin.mail.error.form": "Das Formular wurde nicht verstanden.",

  // Einladungen per E-Mail
  "admin.invites.sendTitle": "Einen Code per E-Mail senden",
  "admin.invites.sendText":
    "Ein neuer Code wird erstellt und mit seinem Registrierungslink und dem Namen der Website gemailt. Seine Notiz hält die Adresse fest.",
  "admin.invites.sendOutboxHint":
    "SMTP_URL ist nicht gesetzt: Die Mail wird im Postausgang abgelegt, nicht gesendet. Senden Sie den Link von dort selbst.",
  "admin.invites.email": "E-Mail-Adresse",
  "admin.invites.mailLanguage": "Sprache der Mail",
  "admin.invites.sendButton": "Per E-Mail senden",
  "admin.invites.sending": "Wird gesendet …",
  "admin.invites.sent": "Einladungscode {code} an {email} gesendet.",
  "admin.invites.filed": "Einladungscode {code} für {email} im Postausgang abgelegt.",
  "admin.invites.sentTo": "gesendet an {email}",
  "admin.invites.error.email": "Geben Sie eine E-Mail-Adresse wie name@example.com ein.",
  "admin.invites.error.mailLanguage": "Wählen Sie Englisch oder Deutsch.",
} satisfies Record<keyof typeof adminMailEn, string>;

import type { accountProfileEn } from "./profile.en.ts";

export const accountProfileDe = {
  "account.overview.intro": "Angemeldet als {email}.",
  "account.overview.lastSignIn": "Letzte Anmeldung: {when}",
  "account.common.error": "Nicht gespeichert",
  "account.common.formError": "Das Formular war unvollständig. Bitte versuchen Sie es noch einmal.",
  "account.common.working": "Einen Moment …",

  "account.password.heading": "Passwort ändern",
  "account.password.intro":
    "Hier bleiben Sie angemeldet; auf allen anderen Geräten, auf denen Sie angemeldet sind, werden Sie abgemeldet.",
  "account.password.current": "Aktuelles Passwort",
  "account.password.new": "Neues Passwort",
  "account.password.newHint": "Mindestens 10 Zeichen; kein verbreitetes Passwort und nicht Ihre E-Mail-Adresse.",
  "account.password.submit": "Passwort ändern",
  "account.password.changed": "Ihr Passwort wurde geändert. Andere Geräte wurden abgemeldet.",
  "account.password.error.currentRequired": "Geben Sie Ihr aktuelles Passwort ein.",
  "account.password.error.wrong": "Das ist nicht Ihr aktuelles Passwort.",
  "account.password.error.required": "Geben Sie ein neues Passwort ein.",
  "account.password.error.tooShort": "Das neue Passwort muss mindestens 10 Zeichen lang sein.",
  "account.password.error.tooLong": "Das neue Passwort darf höchstens 128 Zeichen lang sein.",
  "account.password.error.common":
    "Das neue Passwort ist zu verbreitet oder zu leicht zu erraten. Bitte wählen Sie ein anderes.",
  "account.password.error.notFound": "Dieses Konto hat kein Passwort, das sich ändern ließe.",

  "account.language.heading": "Sprache für E-Mails",
  "account.language.intro":
    "E-Mails dieser Website erreichen Sie in dieser Sprache. Bei der Anmeldung wird sie auf die Sprache gesetzt, die Sie verwenden.",
  "account.language.label": "Sprache",
  "account.language.en": "Englisch (English)",
  "account.language.de": "Deutsch",
  "account.language.submit": "Sprache speichern",
  "account.language.saved": "E-Mails erreichen Sie ab jetzt auf {language}.",

  "account.delete.heading": "Mein Konto löschen",
  "account.delete.intro":
    "Ihr Konto, seine Sitzungen und Einstellungen werden endgültig gelöscht. Das lässt sich nicht rückgängig machen. Geben Sie zur Bestätigung Ihr Passwort ein.",
  "account.delete.password": "Passwort",
  "account.delete.submit": "Mein Konto löschen",
  "account.delete.error.passwordRequired": "Geben Sie Ihr Passwort ein, um Ihr Konto zu löschen.",
  "account.delete.error.wrong": "Das ist nicht Ihr Passwort.",
  "account.deleted.title": "Ihr Konto wurde gelöscht",
  "account.deleted.text": "Sie wurden abgemeldet, und Ihr Konto besteht nicht mehr. Danke, dass Sie hier waren.",
  "account.deleted.home": "Zur Startseite",

  "account.sessions.heading": "Sitzungen",
  "account.sessions.intro":
    "Überall, wo Sie gerade angemeldet sind. Melden Sie jedes Gerät ab, das Sie nicht wiedererkennen.",
  "account.sessions.caption": "Ihre Sitzungen: {count}",
  "account.sessions.column.device": "Gerät",
  "account.sessions.column.address": "Adresse",
  "account.sessions.column.signedIn": "Angemeldet",
  "account.sessions.column.lastActive": "Zuletzt aktiv",
  "account.sessions.column.actions": "Aktionen",
  "account.sessions.thisDevice": "Dieses Gerät",
  "account.sessions.unknownBrowser": "Unbekannter Browser",
  "account.sessions.unknownSystem": "unbekanntem System",
  "account.sessions.on": "{browser} auf {system}",
  "account.sessions.unknownAddress": "unbekannt",
  "account.sessions.signOut": "Abmelden",
  "account.sessions.signOutOne": "{device} abmelden",
  "account.sessions.signOutThis": "Dieses Gerät abmelden",
  "account.sessions.signOutOthers": "Überall sonst abmelden",
  "account.sessions.endedOne": "Das Gerät wurde abgemeldet.",
  "account.sessions.endedOthers": "Überall sonst abgemeldet ({count}).",
  "account.sessions.noOthers": "Sie sind nur auf diesem Gerät angemeldet.",
  "account.sessions.error.gone": "Diese Sitzung ist bereits beendet.",
} satisfies Record<keyof typeof accountProfileEn, string>;

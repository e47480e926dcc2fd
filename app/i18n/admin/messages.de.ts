import type { adminMessagesEn } from "./messages.en.ts";

export const adminMessagesDe = {
  "admin.section.messages": "Nachrichten",
  "admin.section.messagesText": "Was Besucher über das Kontaktformular geschrieben haben.",
  "admin.settings.group.contact": "Kontaktformular",
  "admin.settings.group.contactText":
    "Ein Formular unter /contact (im Menü, solange es eingeschaltet ist), über das Besucher Ihnen schreiben. Kein Dritter ist beteiligt: Spam wird allein durch Prüfungen dieser Website abgehalten.",
  "admin.settings.field.contact_enabled": "Kontaktformular anbieten",
  "admin.settings.field.contact_email": "Nachrichten gehen an",
  "admin.settings.hint.contact_email":
    "Eine E-Mail-Adresse. Leer: die Adresse des ersten Admin-Kontos. Jede Nachricht wird zusätzlich unter „Nachrichten“ gespeichert, damit keine verloren geht, wenn eine Mail scheitert; Ihre Antwort geht an den Absender.",
  "admin.settings.error.badEmail": "Muss eine E-Mail-Adresse wie name@example.com sein, oder leer.",
  "admin.messages.intro":
    "Über das Kontaktformular gesendete Nachrichten, die neueste zuerst. Jede geht auch per Mail an die Adresse aus den Einstellungen; hier bleibt sie, bis Sie sie löschen.",
  "admin.messages.off":
    "Das Kontaktformular ist ausgeschaltet: Besucher können nicht schreiben. Einschalten unter Einstellungen, Kontaktformular.",
  "admin.messages.settingsLink": "Einstellungen des Kontaktformulars",
  "admin.messages.count": "{count} Nachrichten, {unread} ungelesen.",
  "admin.messages.countLimited": "{count} Nachrichten, {unread} ungelesen; die neuesten {shown} sind aufgeführt.",
  "admin.messages.empty": "Noch keine Nachrichten.",
  "admin.messages.caption": "Nachrichten",
  "admin.messages.column.when": "Eingegangen",
  "admin.messages.column.from": "Von",
  "admin.messages.column.message": "Nachricht",
  "admin.messages.column.status": "Status",
  "admin.messages.unread": "Ungelesen",
  "admin.messages.read": "Gelesen",
  "admin.messages.open": "Nachricht von {name} lesen",
  "admin.messages.back": "Alle Nachrichten",
  "admin.messages.received": "Eingegangen am {date}",
  "admin.messages.writtenIn": "Geschrieben auf {language}",
  "admin.messages.language.en": "Englisch",
  "admin.messages.language.de": "Deutsch",
  "admin.messages.reply": "Per E-Mail antworten",
  "admin.messages.markRead": "Als gelesen markieren",
  "admin.messages.markUnread": "Als ungelesen markieren",
  "admin.messages.delete": "Löschen",
  "admin.messages.deleteTitle": "Die Nachricht von {name} löschen?",
  "admin.messages.deleteText":
    "Sie wird endgültig von der Website entfernt. Eine Kopie in Ihrem Postfach bleibt dort erhalten.",
  "admin.messages.markedRead": "Als gelesen markiert.",
  "admin.messages.markedUnread": "Als ungelesen markiert.",
  "admin.messages.deleted": "Die Nachricht von {name} wurde gelöscht.",
  "admin.messages.gone": "Diese Nachricht gibt es nicht mehr.",
  "admin.messages.error.form":
    "Die Anfrage konnte nicht gelesen werden. Laden Sie die Seite neu und versuchen Sie es noch einmal.",
  "admin.audit.areaName.messages": "Kontaktnachrichten",
  "admin.audit.says.messages.read": "{actor} hat die Nachricht von {target} als gelesen markiert",
  "admin.audit.says.messages.unread": "{actor} hat die Nachricht von {target} als ungelesen markiert",
  "admin.audit.says.messages.delete": "{actor} hat die Nachricht von {target} gelöscht",
} satisfies Record<keyof typeof adminMessagesEn, string>;

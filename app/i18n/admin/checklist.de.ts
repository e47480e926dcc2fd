import type { adminChecklistEn } from "./checklist.en.ts";

export const adminChecklistDe = {
  "admin.checklist.heading": "Bevor Sie Ihre Website teilen",
  "admin.checklist.intro":
    "Ein paar Schritte machen die Website zu Ihrer. Jeder verschwindet aus dieser Liste, sobald er erledigt ist.",
  "admin.checklist.legal-notice.title": "Impressum schreiben",
  "admin.checklist.legal-notice.text": "Das Impressum zeigt noch die mitgelieferte Vorlage, auf Englisch oder Deutsch.",
  "admin.checklist.legal-notice.link": "Impressum bearbeiten",
  "admin.checklist.privacy-policy.title": "Datenschutzerklärung schreiben",
  "admin.checklist.privacy-policy.text":
    "Die Datenschutzerklärung zeigt noch die mitgelieferte Vorlage, auf Englisch oder Deutsch.",
  "admin.checklist.privacy-policy.link": "Datenschutzerklärung bearbeiten",
  "admin.checklist.home-text.title": "Schreiben Sie Ihre Startseite",
  "admin.checklist.home-text.text":
    "Die Startseite begrüßt Besucher noch mit dem mitgelieferten Text, auf Englisch und Deutsch. Erzählen Sie von sich und Ihrer Website.",
  "admin.checklist.home-text.link": "Startseite bearbeiten",
  "admin.checklist.share-description.title": "Website für Suche und Teilen beschreiben",
  "admin.checklist.share-description.text":
    "Suchergebnisse und Link-Vorschauen zeigen die allgemeine Beschreibung aus der Fußzeile statt Ihrer eigenen.",
  "admin.checklist.share-description.link": "Beschreibung schreiben",
  "admin.checklist.first-pictures.title": "Erste Bilder hochladen",
  "admin.checklist.first-pictures.text": "Die Galerie ist leer.",
  "admin.checklist.first-pictures.link": "Galerie öffnen",
  "admin.checklist.watermark-text.title": "Wasserzeichen-Text wählen",
  "admin.checklist.watermark-text.text":
    "Die großen Galeriebilder tragen den aus dem Namen der Website gebildeten Text. Schreiben Sie Ihren eigenen oder schalten Sie das Wasserzeichen aus.",
  "admin.checklist.watermark-text.link": "Wasserzeichen einstellen",
  "admin.checklist.mail.title": "Ausgehende E-Mails einrichten",
  "admin.checklist.mail.text":
    "Es ist kein Mailserver eingerichtet (SMTP_URL): Einladungen und Passwort-Zurücksetzungen landen nur im Postausgang hier.",
  "admin.checklist.mail.link": "Wie E-Mails versendet werden",
  "admin.checklist.two-factor.title": "Zwei-Faktor-Anmeldung einschalten",
  "admin.checklist.two-factor.text": "Admins ohne Zwei-Faktor-Anmeldung: {emails}",
  "admin.checklist.two-factor.link": "Zwei-Faktor-Anmeldung einrichten",
  "admin.checklist.two-factor.linkOthers": "Admins ansehen",
} satisfies Record<keyof typeof adminChecklistEn, string>;

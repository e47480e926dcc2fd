import type { adminGalleryEn } from "./gallery.en.ts";

export const adminGalleryDe = {
  "admin.gallery.title": "Galerie",
  "admin.gallery.intro":
    "Laden Sie Bilder hoch, schreiben Sie Bildtexte auf Englisch und Deutsch und legen Sie fest, welche Bilder Besucher sehen.",
  "admin.gallery.upload.heading": "Bilder hochladen",
  "admin.gallery.upload.drop": "Bilder hierher ziehen oder",
  "admin.gallery.upload.choose": "Dateien auswählen",
  "admin.gallery.upload.hint":
    "JPEG, PNG, WebP, AVIF oder GIF, jeweils höchstens {size}. Standort- und Kameradaten werden aus allem entfernt, was Besucher erhalten.",
  "admin.gallery.upload.listLabel": "Uploads",
  "admin.gallery.upload.waiting": "Wartet…",
  "admin.gallery.upload.uploading": "Wird hochgeladen: {percent} %",
  "admin.gallery.upload.processing": "Wird verarbeitet…",
  "admin.gallery.upload.done": "Hinzugefügt",
  "admin.gallery.upload.clear": "Liste leeren",
  "admin.gallery.upload.progress": "Upload von {name}",
  "admin.gallery.upload.interrupted": "{name}: Der Upload wurde unterbrochen. Bitte versuchen Sie es erneut.",
  "admin.gallery.upload.failed":
    "{name}: Der Upload ist fehlgeschlagen (Status {status}). Bitte versuchen Sie es erneut.",
  "admin.gallery.uploaded": "{name} wurde der Galerie hinzugefügt.",
  "admin.gallery.error.notImage": "{name}: kein unterstütztes Bildformat",
  "admin.gallery.error.tooManyPixels": "{name}: Das Bild hat mehr als 100 Megapixel",
  "admin.gallery.error.unreadable":
    "{name}: Das Bild konnte nicht gelesen werden (beschädigte oder unvollständige Datei)",
  "admin.gallery.error.tooLarge": "{name}: Die Datei ist größer als {size}",
  "admin.gallery.error.noFile": "Es wurde keine Datei gesendet.",
  "admin.gallery.list.heading": "Bilder ({count})",
  "admin.gallery.list.label": "Bilder in Anzeigereihenfolge",
  "admin.gallery.empty": "Noch keine Bilder. Laden Sie oben welche hoch.",
  "admin.gallery.field.title": "Titel",
  "admin.gallery.field.description": "Beschreibung",
  "admin.gallery.field.category": "Kategorie",
  "admin.gallery.field.categoryHint":
    "Besucher filtern nach der englischen Kategorie; der deutsche Name ist nur ihre Beschriftung.",
  "admin.gallery.noCategory": "Keine Kategorie",
  "admin.gallery.size": "{width} × {height} px",
  "admin.gallery.publishLabel": "„{name}“ veröffentlichen",
  "admin.gallery.unpublishLabel": "„{name}“ verbergen",
  "admin.gallery.publish": "Veröffentlichen",
  "admin.gallery.unpublish": "Verbergen",
  "admin.gallery.editLabel": "„{name}“ bearbeiten",
  "admin.gallery.deleteLabel": "„{name}“ löschen",
  "admin.gallery.deleteText":
    "Das Bild wird mit allen Größen vom Server entfernt. Das lässt sich nicht rückgängig machen.",
  "admin.gallery.editHeading": "Texte von „{name}“",
  "admin.gallery.published": "„{name}“ ist jetzt sichtbar.",
  "admin.gallery.unpublished": "„{name}“ ist jetzt verborgen.",
  "admin.gallery.deleted": "„{name}“ wurde gelöscht.",
  "admin.gallery.saved": "„{name}“ wurde gespeichert.",
  "admin.gallery.invalid": "Bitte prüfen Sie die markierten Felder.",
  "admin.gallery.error.categoryEnglish": "Geben Sie auch die englische Kategorie ein: Nach ihr filtert die Galerie.",
} satisfies Record<keyof typeof adminGalleryEn, string>;

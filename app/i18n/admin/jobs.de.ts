import type { adminJobsEn } from "./jobs.en.ts";

export const adminJobsDe = {
  "admin.jobs.heading": "Fehlgeschlagene Hintergrundarbeit",
  "admin.jobs.intro":
    "Die Website hat diese Arbeit mehrmals versucht und aufgegeben. „Erneut versuchen“ reiht sie mit neuen Versuchen wieder ein. „Verwerfen“ entfernt den Hinweis, die Arbeit bleibt dann ungetan (eine regelmäßige Aufgabe läuft zu ihrem nächsten Termin trotzdem).",
  "admin.jobs.noneLeft": "Jetzt schlägt nichts mehr fehl.",
  "admin.jobs.caption": "Fehlgeschlagene Hintergrundarbeit, neueste zuerst",
  "admin.jobs.column.what": "Was",
  "admin.jobs.column.when": "Zuletzt fehlgeschlagen",
  "admin.jobs.column.tries": "Versuche",
  "admin.jobs.column.error": "Fehler",
  "admin.jobs.column.actions": "Aktionen",
  "admin.jobs.retry": "Erneut versuchen",
  "admin.jobs.dismiss": "Verwerfen",
  "admin.jobs.which": "{job}, zuletzt fehlgeschlagen {time}",
  "admin.jobs.retried": "„{job}“ ist wieder eingereiht.",
  "admin.jobs.dismissed": "Der Hinweis auf „{job}“ ist verworfen.",
  "admin.jobs.gone":
    "Diese Arbeit schlägt nicht mehr fehl: Sie wurde inzwischen erneut versucht oder verworfen. Die Liste zeigt, was jetzt fehlschlägt.",
  "admin.jobs.error.form":
    "Die Anfrage nennt keine aufgeführte Arbeit oder keine bekannte Antwort (Erneut versuchen oder Verwerfen).",

  "admin.jobs.kind.image.finish": "Bildgrößen erstellen",
  "admin.jobs.kind.watermark.redraw": "Wasserzeichen neu zeichnen",
  "admin.jobs.kind.posts.publish": "Geplante Beiträge veröffentlichen",
  "admin.jobs.kind.subscriptions.announce": "Neuen Beitrag oder neues Album an Abonnenten mailen",
  "admin.jobs.kind.subscriptions.sweep": "Neue Beiträge und Alben für Abonnenten suchen",
  "admin.jobs.kind.backup.scheduled": "Geplante Sicherung",
  "admin.jobs.kind.mail.send": "Eine Mail senden",
  "admin.jobs.kind.sweep.storage": "Ungenutzte Dateien aufräumen",
  "admin.jobs.kind.posts.place-images": "Bilder von Beiträgen dorthin verschieben, wo ihre Sichtbarkeit sie hinstellt",
  "admin.jobs.kind.sweep.attempts": "Abgelaufene Zähler von Anmeldeversuchen aufräumen",
  "admin.jobs.kind.sweep.events": "Alte Änderungsereignisse aufräumen",
  "admin.jobs.kind.sweep.jobs": "Erledigte Hintergrundarbeit aufräumen",
  "admin.jobs.kind.sweep.tokens": "Abgelaufene Kontolinks aufräumen",

  "admin.audit.areaName.jobs": "Hintergrundarbeit",
  "admin.audit.field.error": "Fehler",
  "admin.audit.says.jobs.retry": "{actor} hat die fehlgeschlagene Hintergrundarbeit {job} erneut versuchen lassen",
  "admin.audit.says.jobs.dismiss": "{actor} hat die fehlgeschlagene Hintergrundarbeit {job} verworfen",
} satisfies Record<keyof typeof adminJobsEn, string>;

import type { adminStatisticsEn } from "./statistics.en.ts";

/** Die Texte der Statistik im Adminbereich (Issue 46). */
export const adminStatisticsDe = {
  "admin.settings.group.statistics": "Statistik",
  "admin.settings.group.statisticsText":
    "Auf diesem Server gezählt, ohne Cookies und ohne fremden Dienst: welche Seiten angesehen werden, von wo aus und auf welcher Art Gerät. Keine Adresse, kein Browser und kein Name wird gespeichert.",
  "admin.settings.field.statistics_enabled": "Besuche zählen",
  "admin.settings.field.statistics_retention_days": "Tageszahlen aufbewahren",
  "admin.settings.retention.0": "Für immer",
  "admin.settings.retention.30": "30 Tage",
  "admin.settings.retention.90": "90 Tage",
  "admin.settings.retention.365": "1 Jahr",
  "admin.settings.retention.730": "2 Jahre",
  "admin.settings.error.badRetention": "Bitte einen der angebotenen Zeiträume wählen.",
} satisfies Record<keyof typeof adminStatisticsEn, string>;

/** Admin strings of the statistics (issue 46): their settings; the statistics screen's own follow. */
export const adminStatisticsEn = {
  "admin.settings.group.statistics": "Statistics",
  "admin.settings.group.statisticsText":
    "Counted on this server, without cookies and without any other service: which pages are looked at, from where and on which kind of device. No address, browser or name is kept.",
  "admin.settings.field.statistics_enabled": "Count visits",
  "admin.settings.field.statistics_retention_days": "Keep the daily counts",
  "admin.settings.retention.0": "For ever",
  "admin.settings.retention.30": "30 days",
  "admin.settings.retention.90": "90 days",
  "admin.settings.retention.365": "1 year",
  "admin.settings.retention.730": "2 years",
  "admin.settings.error.badRetention": "Choose one of the offered periods.",
} as const;

import { adminAlbumsDe } from "./admin/albums.de.ts";
import { adminAlbumsEn } from "./admin/albums.en.ts";
import { adminAuditDe } from "./admin/audit.de.ts";
import { adminAuditEn } from "./admin/audit.en.ts";
import { adminChecklistDe } from "./admin/checklist.de.ts";
import { adminChecklistEn } from "./admin/checklist.en.ts";
import { adminCommonDe } from "./admin/common.de.ts";
import { adminCommonEn } from "./admin/common.en.ts";
import { adminContentDe } from "./admin/content.de.ts";
import { adminContentEn } from "./admin/content.en.ts";
import { adminGalleryDe } from "./admin/gallery.de.ts";
import { adminGalleryEn } from "./admin/gallery.en.ts";
import { adminGroupsDe } from "./admin/groups.de.ts";
import { adminGroupsEn } from "./admin/groups.en.ts";
import { adminJobsDe } from "./admin/jobs.de.ts";
import { adminJobsEn } from "./admin/jobs.en.ts";
import { adminMailDe } from "./admin/mail.de.ts";
import { adminMailEn } from "./admin/mail.en.ts";
import { adminMessagesDe } from "./admin/messages.de.ts";
import { adminMessagesEn } from "./admin/messages.en.ts";
import { adminPostRulesDe } from "./admin/post-rules.de.ts";
import { adminPostRulesEn } from "./admin/post-rules.en.ts";
import { adminPostsEditorDe } from "./admin/posts-editor.de.ts";
import { adminPostsEditorEn } from "./admin/posts-editor.en.ts";
import { adminSiteDe } from "./admin/site.de.ts";
import { adminSiteEn } from "./admin/site.en.ts";
import { adminStatisticsDe } from "./admin/statistics.de.ts";
import { adminStatisticsEn } from "./admin/statistics.en.ts";
import { createTranslator, type Language, type TranslateWith } from "./i18n.ts";

/**
 * The admin screens' strings: English is the source, German must have every key (checked by the type).
 * Only the server and tests import this module (for values); the browser gets one language through the
 * admin layout's loader.
 */
export const adminEn = {
  ...adminCommonEn,
  ...adminGalleryEn,
  ...adminContentEn,
  ...adminSiteEn,
  ...adminMailEn,
  ...adminAuditEn,
  ...adminChecklistEn,
  ...adminPostRulesEn,
  ...adminPostsEditorEn,
  ...adminMessagesEn,
  ...adminJobsEn,
  ...adminGroupsEn,
  ...adminAlbumsEn,
  ...adminStatisticsEn,
};
export type AdminMessageKey = keyof typeof adminEn;
export type AdminDictionary = Record<AdminMessageKey, string>;
export const adminDe = {
  ...adminCommonDe,
  ...adminGalleryDe,
  ...adminContentDe,
  ...adminSiteDe,
  ...adminMailDe,
  ...adminAuditDe,
  ...adminChecklistDe,
  ...adminPostRulesDe,
  ...adminPostsEditorDe,
  ...adminMessagesDe,
  ...adminJobsDe,
  ...adminGroupsDe,
  ...adminAlbumsDe,
  ...adminStatisticsDe,
} satisfies AdminDictionary;

export function adminDictionaryFor(lang: Language): AdminDictionary {
  return lang === "de" ? adminDe : adminEn;
}

export type AdminTranslate = TranslateWith<AdminMessageKey>;

export function adminTranslatorFor(lang: Language): AdminTranslate {
  return createTranslator(adminDictionaryFor(lang));
}

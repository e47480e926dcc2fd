import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type ContentMeta, contentMeta, contentService, localized } from "#app/domains/content/content.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { linkSchema } from "./links-schema.ts";

export const linksService = contentService({
  table: "links",
  area: "links",
  schema: linkSchema,
  columns: (input) => ({ title: input.title, title_de: input.title_de, url: input.url, icon: input.icon }),
  target: (row) => row.title,
  describe: (row) => JSON.stringify({ title: row.title, title_de: row.title_de, url: row.url, icon: row.icon }),
});

export type AdminLink = ContentMeta & { title: string; title_de: string; url: string; icon: string };

export async function listLinksForAdmin(db: Kysely<Database>): Promise<AdminLink[]> {
  const rows = await linksService.listAll(db);
  return rows.map((row) => ({
    ...contentMeta(row),
    title: row.title,
    title_de: row.title_de,
    url: row.url,
    icon: row.icon,
  }));
}

export type PublicLink = { id: string; title: string; url: string; icon: string };

/** Active links in display order, titled in the visitor's language. */
export async function listPublishedLinks(db: Kysely<Database>, lang: Language): Promise<PublicLink[]> {
  const rows = await linksService.listActive(db);
  return rows.map((row) => ({
    id: row.id,
    title: localized(row.title, row.title_de, lang),
    url: row.url,
    icon: row.icon,
  }));
}

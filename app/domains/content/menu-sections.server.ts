import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { cachedUntilChanged } from "#app/db/version-cache.server.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import type { MenuSections } from "./menu-sections.ts";

async function hasPublished(db: Kysely<Database>, table: "links" | "faq_entries" | "videos"): Promise<boolean> {
  const row = await db.selectFrom(table).select("id").where("active", "=", true).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Which content pages have at least one published entry. Read once per database change version, like the
 * settings: publishing, hiding or deleting an entry is a write, so the next page (and the page cache) sees it.
 */
function readPublishedSections(db: Kysely<Database>): Promise<MenuSections> {
  return cachedUntilChanged(db, "menu-sections", async () => {
    const [links, faq, videos] = await Promise.all([
      hasPublished(db, "links"),
      hasPublished(db, "faq_entries"),
      hasPublished(db, "videos"),
    ]);
    return { links, faq, videos };
  });
}

/** The content pages the main menu offers: those with a published entry, or all while the setting says so. */
export async function readMenuSections(db: Kysely<Database>, settings: SiteSettings): Promise<MenuSections> {
  if (settings.menu_show_empty_sections === "true") return { links: true, faq: true, videos: true };
  return { ...(await readPublishedSections(db)) };
}

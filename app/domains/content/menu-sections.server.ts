import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { cachedUntilChanged } from "#app/db/version-cache.server.ts";
import type { MenuSections } from "./menu-sections.ts";

async function hasPublished(db: Kysely<Database>, table: "links" | "faq_entries" | "videos"): Promise<boolean> {
  const row = await db.selectFrom(table).select("id").where("active", "=", true).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether a post is visible now: the posts domain's rule, passed in by the caller (posts build on content's text
 * rules, so content does not import posts).
 */
export type PublishedPostCheck = (db: Kysely<Database>) => Promise<boolean>;

/** The settings the menu follows (by key: content sits below the settings modules, which import it). */
type MenuSettings = { contact_enabled: string; menu_show_empty_sections: string };

/** The key of the menu's kept value: pages name it as what they show of these areas (server/page-areas.ts). */
export const MENU_SECTIONS_KEY = "menu-sections";
const MENU_SECTION_AREAS = ["links", "faq", "videos", "posts"] as const;

/**
 * Which content pages have at least one published entry. Read once per change of links, FAQ, videos or posts:
 * publishing, hiding or deleting an entry is a write, so the next page (and the page cache) sees it. It computes
 * from the database alone, so that the page cache may compute it again to see whether a kept page's menu is
 * still right (app/db/version-cache.server.ts, `settleKept`).
 */
function readPublishedSections(
  db: Kysely<Database>,
  hasPublishedPost: PublishedPostCheck,
): Promise<Omit<MenuSections, "contact">> {
  return cachedUntilChanged(
    db,
    MENU_SECTIONS_KEY,
    async () => {
      const [links, faq, videos, blog] = await Promise.all([
        hasPublished(db, "links"),
        hasPublished(db, "faq_entries"),
        hasPublished(db, "videos"),
        // Kept until the next write: the scheduler's write at a post's time is what brings "Blog" in then.
        hasPublishedPost(db),
      ]);
      return { links, faq, videos, blog };
    },
    MENU_SECTION_AREAS,
  );
}

/**
 * The content pages the main menu offers: those with a published entry, or all while the setting says so (the
 * blog only once a post is visible); and the contact form while it is on.
 */
export async function readMenuSections(
  db: Kysely<Database>,
  settings: MenuSettings,
  hasPublishedPost: PublishedPostCheck,
): Promise<MenuSections> {
  const published = await readPublishedSections(db, hasPublishedPost);
  // The contact form is in the menu exactly while the owner has it on.
  const contact = settings.contact_enabled === "true";
  // The blog joins the menu with its first visible post whatever the setting: an empty blog is no section yet.
  if (settings.menu_show_empty_sections === "true")
    return { links: true, faq: true, videos: true, blog: published.blog, contact };
  return { ...published, contact };
}

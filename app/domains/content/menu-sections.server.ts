import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { cachedUntilChanged } from "#app/db/version-cache.server.ts";
import { readableBy } from "#app/domains/access/access.server.ts";
import { type Reader, VISITOR } from "#app/domains/access/reader.ts";
import type { MenuSections } from "./menu-sections.ts";

async function hasPublished(db: Kysely<Database>, table: "links" | "faq_entries"): Promise<boolean> {
  const row = await db.selectFrom(table).select("id").where("active", "=", true).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether `reader` sees a video. The kept menu is the visitors' (kept once for every reader, and by the page cache),
 * as the blog's check is: a members' video alone does not name the section to visitors. app/root.tsx asks again
 * for a signed-in reader when the visitors' menu has no "Videos".
 */
export async function hasVisibleVideo(db: Kysely<Database>, reader: Reader = VISITOR): Promise<boolean> {
  const row = await db
    .selectFrom("videos as v")
    .select("v.id")
    .where("v.active", "=", true)
    .where(readableBy(reader, "video", "v"))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether a post is visible now: the posts domain's rule, passed in by the caller (posts build on content's text
 * rules, so content does not import posts).
 */
export type PublishedPostCheck = (db: Kysely<Database>) => Promise<boolean>;

/** Whether the menu's content pages beyond this domain's own have something visitors see: posts, albums. */
export type VisitorChecks = { post: PublishedPostCheck; album: PublishedPostCheck };

/** The settings the menu follows (by key: content sits below the settings modules, which import it). */
type MenuSettings = { contact_enabled: string; menu_show_empty_sections: string };

/** The key of the menu's kept value: pages name it as what they show of these areas (server/page-areas.ts). */
export const MENU_SECTIONS_KEY = "menu-sections";
const MENU_SECTION_AREAS = ["links", "faq", "videos", "posts", "albums", "gallery", "media"] as const;

/**
 * Which content pages have at least one published entry. Read once per change of links, FAQ, videos or posts:
 * publishing, hiding or deleting an entry is a write, so the next page (and the page cache) sees it. It computes
 * from the database alone, so that the page cache may compute it again to see whether a kept page's menu is
 * still right (app/db/version-cache.server.ts, `settleKept`).
 */
function readPublishedSections(db: Kysely<Database>, checks: VisitorChecks): Promise<Omit<MenuSections, "contact">> {
  return cachedUntilChanged(
    db,
    MENU_SECTIONS_KEY,
    async () => {
      const [links, faq, videos, blog, albums] = await Promise.all([
        hasPublished(db, "links"),
        hasPublished(db, "faq_entries"),
        hasVisibleVideo(db),
        // Kept until the next write: the scheduler's write at a post's time is what brings "Blog" in then.
        checks.post(db),
        checks.album(db),
      ]);
      return { links, faq, videos, blog, albums };
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
  checks: VisitorChecks,
): Promise<MenuSections> {
  const published = await readPublishedSections(db, checks);
  // The contact form is in the menu exactly while the owner has it on.
  const contact = settings.contact_enabled === "true";
  // The blog joins the menu with its first visible post whatever the setting: an empty blog is no section yet.
  if (settings.menu_show_empty_sections === "true")
    return { links: true, faq: true, videos: true, blog: published.blog, contact, albums: true };
  return { ...published, contact };
}

/** A signed-in reader. */
type SignedInReader = Exclude<Reader, { kind: "visitor" }>;

/** Whether a signed-in reader sees a post, an album: the posts' and albums' own rules, passed in by the caller. */
export type ReaderChecks = {
  post: (db: Kysely<Database>, reader: SignedInReader) => Promise<boolean>;
  album: (db: Kysely<Database>, reader: SignedInReader) => Promise<boolean>;
};

/**
 * "Blog", "Videos" and "Albums" as a signed-in reader sees them: also when the only posts, videos or albums are
 * theirs. Kept per audience (an admin, or a member's set of groups: all the rule reads of a reader) until a write
 * to what the menu shows, as the visitors' menu is: a member's page asks nothing more for its menu.
 */
export function readReaderSections(
  db: Kysely<Database>,
  reader: SignedInReader,
  checks: ReaderChecks,
): Promise<Pick<MenuSections, "blog" | "videos" | "albums">> {
  const audience = reader.kind === "admin" ? "admin" : `member:${[...reader.groupIds].sort().join(",")}`;
  return cachedUntilChanged(
    db,
    `${MENU_SECTIONS_KEY}:${audience}`,
    async () => {
      const [blog, videos, albums] = await Promise.all([
        checks.post(db, reader),
        hasVisibleVideo(db, reader),
        checks.album(db, reader),
      ]);
      return { blog, videos, albums };
    },
    MENU_SECTION_AREAS,
  );
}

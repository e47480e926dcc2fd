import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { localized } from "#app/domains/content/content.server.ts";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import { imageForDisplay } from "#app/domains/media/images.server.ts";
import type { Language } from "#app/i18n/i18n.ts";

export const HOME_IMAGE_COUNT = 6;

export type HomeImage = { id: string; title: string; image: ImageDisplay };

/** The pictures published last, newest first, for the start page's highlights. */
export async function latestGalleryImages(
  db: Kysely<Database>,
  lang: Language,
  limit = HOME_IMAGE_COUNT,
): Promise<HomeImage[]> {
  const rows = await db
    .selectFrom("gallery_images as g")
    .innerJoin("images as i", "i.id", "g.image_id")
    .select(["g.id", "g.title", "g.title_de", "i.width", "i.height", "i.placeholder", "i.variants"])
    .where("g.published", "=", true)
    .orderBy("g.created_at", "desc")
    .orderBy("g.id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    title: localized(row.title, row.title_de, lang),
    image: imageForDisplay(row),
  }));
}

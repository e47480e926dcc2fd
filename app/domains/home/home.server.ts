import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type Reader, VISITOR } from "#app/domains/access/reader.ts";
import { listLatestPublishedGallery } from "#app/domains/gallery/gallery-public.server.ts";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import type { Language } from "#app/i18n/i18n.ts";

export const HOME_IMAGE_COUNT = 6;

/** `alt`: the picture's alt text, or its title when it has none (empty when it has neither). */
export type HomeImage = { id: string; title: string; alt: string; image: ImageDisplay };

/** The pictures published last, newest first, for the start page's highlights. */
export async function latestGalleryImages(
  db: Kysely<Database>,
  lang: Language,
  limit = HOME_IMAGE_COUNT,
  reader: Reader = VISITOR,
): Promise<HomeImage[]> {
  const items = await listLatestPublishedGallery(db, { lang, limit, reader });
  return items.map(({ id, title, alt, image }) => ({ id, title, alt, image }));
}

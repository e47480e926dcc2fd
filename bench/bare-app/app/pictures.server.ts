import Database from "better-sqlite3";

/** One served file of a picture, as the app's `images.variants` JSON lists them. */
type Variant = { width: number; height: number; format: "avif" | "webp" | "jpeg"; key: string };

export type Picture = {
  id: string;
  title: string;
  width: number;
  height: number;
  placeholder: string;
  srcsets: { avif: string; webp: string; jpeg: string };
  src: string;
};

// The bench points BARE_SQLITE_FILE at the very file the real app reads; read-only, so nothing here can change it.
const file = process.env.BARE_SQLITE_FILE;
if (!file) throw new Error("BARE_SQLITE_FILE is not set");
const db = new Database(file, { readonly: true, fileMustExist: true });

// The same 24 pictures the app's first gallery page shows: published, ready, in display order.
const firstPage = db.prepare<
  [],
  { id: string; title: string; width: number; height: number; placeholder: string; variants: string }
>(
  `SELECT g.id, g.title, i.width, i.height, i.placeholder, i.variants
     FROM gallery_images g JOIN images i ON i.id = g.image_id
    WHERE g.published = 1 AND i.ready = 1
    ORDER BY g.sort_order, g.id
    LIMIT 24`,
);

const url = (key: string) => `/media/${key.slice("public/".length)}`;

export function firstPictures(): Picture[] {
  return firstPage.all().map((row) => {
    const variants = (JSON.parse(row.variants) as Variant[]).sort((a, b) => a.width - b.width);
    const srcset = (format: Variant["format"]) =>
      variants
        .filter((variant) => variant.format === format)
        .map((variant) => `${url(variant.key)} ${variant.width}w`)
        .join(", ");
    const jpegs = variants.filter((variant) => variant.format === "jpeg");
    const fallback = jpegs.filter((variant) => variant.width <= 960).at(-1) ?? jpegs[0];
    return {
      id: row.id,
      title: row.title,
      width: row.width,
      height: row.height,
      placeholder: row.placeholder,
      srcsets: { avif: srcset("avif"), webp: srcset("webp"), jpeg: srcset("jpeg") },
      src: fallback ? url(fallback.key) : "",
    };
  });
}

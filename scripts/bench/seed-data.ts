import { randomUUID } from "node:crypto";
import fs from "node:fs";
import Database from "better-sqlite3";
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { addSampleContent } from "#tests/support/sample-content.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";

const CATEGORIES = [
  { category: "Landscape", category_de: "Landschaft" },
  { category: "City", category_de: "Stadt" },
  { category: "Nature", category_de: "Natur" },
  { category: "", category_de: "" },
];

/** The category the bench filters by: one that every data folder has. */
export const FILTER_CATEGORY = "Landscape";

/**
 * A data folder as a site owner's would look: the migrated database with the default settings, the sample
 * links, questions and video, and `realPictures` pictures made by the real upload pipeline (some with a
 * category), plus an admin with a session. Returns that session's Cookie header.
 */
export async function seedDataFolder(dir: string, options: { realPictures: number; authSecret: string }) {
  fs.mkdirSync(dir, { recursive: true });
  const database = openDatabase({ sqliteFile: sqliteFileIn(dir) });
  try {
    await migrateToLatest(database.db, database.kind);
    await insertMissingDefaults(database.db);
    const storage = storageIn(dir);
    const sample = await addSampleContent(database.db, storage);
    for (let index = sample.pictures; index < options.realPictures; index++) {
      await createGalleryPicture(database.db, storage, {
        ...CATEGORIES[index % CATEGORIES.length],
        title: `Picture ${index + 1}`,
        description: `Picture ${index + 1}, made for the benchmark.`,
        hue: (index * 37) % 360,
        // Smaller than the sample pictures (three widths instead of four): the seeding stays quick.
        width: 960,
        height: 640,
      });
    }
    const admin = await createUser(database.db, { admin: true });
    const cookie = await createSessionCookie(database.db, admin.id, options.authSecret);
    return { adminCookie: `${cookie.name}=${cookie.value}` };
  } finally {
    await database.close();
  }
}

/**
 * Grows the gallery to `total` pictures by copying the rows of the existing ones (new ids, after them in
 * display order, older than them, categories as the originals have them): the files are shared, nothing is
 * processed again. The first page and the home page therefore show the same pictures as before.
 */
export function copyPictureRows(sqliteFile: string, total: number): void {
  const db = new Database(sqliteFile);
  try {
    const pictures = db.prepare("SELECT * FROM gallery_images ORDER BY sort_order, id").all() as Record<
      string,
      unknown
    >[];
    const images = new Map(
      (db.prepare("SELECT * FROM images").all() as Record<string, unknown>[]).map((row) => [row.id, row]),
    );
    if (pictures.length === 0) throw new Error("No pictures to copy");
    // Every column as it is, so that columns added later (like images.ready) are copied too.
    const insert = (table: string, row: Record<string, unknown>) => {
      const columns = Object.keys(row);
      db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`).run(
        row,
      );
    };
    let sortOrder = Math.max(...pictures.map((row) => Number(row.sort_order)));
    const oldest = Math.min(...pictures.map((row) => Date.parse(String(row.created_at))));
    db.transaction(() => {
      for (let index = pictures.length; index < total; index++) {
        const source = pictures[index % pictures.length] as Record<string, unknown>;
        const image = images.get(source.image_id);
        if (!image) throw new Error(`Picture ${source.id} has no image row`);
        const created = new Date(oldest - (index + 1) * 1000).toISOString();
        const imageId = randomUUID();
        insert("images", { ...image, id: imageId, created_at: created });
        sortOrder += 1;
        insert("gallery_images", {
          ...source,
          id: randomUUID(),
          image_id: imageId,
          sort_order: sortOrder,
          created_at: created,
          updated_at: created,
        });
      }
    })();
  } finally {
    db.close();
  }
}

/** The ids of every gallery picture, published or not. */
export function pictureIds(sqliteFile: string): Set<string> {
  const db = new Database(sqliteFile, { readonly: true });
  try {
    return new Set((db.prepare("SELECT id FROM gallery_images").all() as { id: string }[]).map((row) => row.id));
  } finally {
    db.close();
  }
}

/** How many pictures visitors see: published, and with every size made. */
export function visiblePictures(sqliteFile: string): number {
  const db = new Database(sqliteFile, { readonly: true });
  try {
    const sql =
      "SELECT count(*) AS n FROM gallery_images g JOIN images i ON i.id = g.image_id WHERE g.published = 1 AND i.ready = 1";
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The image id of a gallery picture. */
export function imageIdOf(sqliteFile: string, pictureId: string): string {
  const db = new Database(sqliteFile, { readonly: true });
  try {
    const row = db.prepare("SELECT image_id FROM gallery_images WHERE id = ?").get(pictureId) as
      | { image_id: string }
      | undefined;
    if (!row) throw new Error(`No picture ${pictureId}`);
    return row.image_id;
  } finally {
    db.close();
  }
}

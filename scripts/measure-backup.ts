// Time and size of a backup of a site with many pictures, and how long its restore takes.
//   npx tsx scripts/measure-backup.ts [--pictures 1000] [--real 20] [--postgres postgres://…/db]
// Seeds a data folder in a temp directory: `--real` pictures through the real image pipeline, then copies of
// their rows *and files* (each copy with files of its own, as uploads would have) up to `--pictures`. Then one
// backup of it (as `npm run cli -- backup` makes it), and its restore into a fresh SQLite folder (and into the
// empty PostgreSQL database given with --postgres).
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { openDatabase } from "#app/db/database.server.ts";
import { createBackup } from "#app/domains/backup/backup.server.ts";
import { restoreBackup } from "#app/domains/backup/restore.server.ts";
import { createLocalStorage } from "#app/domains/media/storage.server.ts";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { seedDataFolder } from "./bench/seed-data.ts";

const { values } = parseArgs({
  options: {
    pictures: { type: "string", default: "1000" },
    real: { type: "string", default: "20" },
    postgres: { type: "string" },
  },
});
const total = Number(values.pictures);
const real = Number(values.real);

/** The local storage of a data folder (nothing is signed with it). */
const storageIn = (dataDir: string) =>
  createLocalStorage({ root: path.join(dataDir, "storage"), secret: "measure-backup" });

/** Copies pictures (rows and every file, under the new image's id) until the gallery holds `count`. */
function copyPictures(dataDir: string, count: number): void {
  const storage = path.join(dataDir, "storage");
  const db = new Database(sqliteFileIn(dataDir));
  try {
    const pictures = db.prepare("SELECT * FROM gallery_images ORDER BY sort_order, id").all() as Record<
      string,
      unknown
    >[];
    const images = new Map(
      (db.prepare("SELECT * FROM images").all() as Record<string, unknown>[]).map((row) => [row.id, row]),
    );
    const insert = (table: string, row: Record<string, unknown>) => {
      const columns = Object.keys(row);
      db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`).run(
        row,
      );
    };
    let sortOrder = Math.max(...pictures.map((row) => Number(row.sort_order)));
    db.transaction(() => {
      for (let index = pictures.length; index < count; index++) {
        const source = pictures[index % pictures.length] as Record<string, unknown>;
        const image = images.get(source.image_id) as Record<string, unknown>;
        const sourceId = String(image.id);
        const imageId = randomUUID();
        const rename = (key: string) => key.replaceAll(sourceId, imageId);
        const originalKey = rename(String(image.original_key));
        fs.copyFileSync(path.join(storage, String(image.original_key)), path.join(storage, originalKey));
        const folder = path.join(storage, "public", "images", sourceId);
        fs.mkdirSync(path.join(storage, "public", "images", imageId), { recursive: true });
        for (const name of fs.readdirSync(folder)) {
          fs.copyFileSync(path.join(folder, name), path.join(storage, "public", "images", imageId, name));
        }
        insert("images", {
          ...image,
          id: imageId,
          original_key: originalKey,
          variants: rename(String(image.variants)),
        });
        sortOrder += 1;
        insert("gallery_images", { ...source, id: randomUUID(), image_id: imageId, sort_order: sortOrder });
      }
    })();
  } finally {
    db.close();
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, (performance.now() - start) / 1000];
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-measure-backup-"));
try {
  const dataDir = path.join(root, "site");
  console.error(`Seeding ${real} pictures through the pipeline, then copies up to ${total}…`);
  await seedDataFolder(dataDir, { realPictures: real, authSecret: "measure-backup-secret-that-is-long-enough" });
  copyPictures(dataDir, total);

  const database = openDatabase({ sqliteFile: sqliteFileIn(dataDir) });
  const archive = path.join(root, "site.tar.gz");
  let backup: Awaited<ReturnType<typeof createBackup>>;
  let backupSeconds: number;
  try {
    [backup, backupSeconds] = await timed(() =>
      createBackup({ database, dataDir, storage: storageIn(dataDir) }, archive),
    );
  } finally {
    await database.close();
  }
  const { counts } = backup.manifest;
  console.log(
    `Site: ${counts.rows.gallery_images} pictures, ${counts.files} files, ${megabytes(counts.fileBytes)} of files`,
  );
  console.log(`Backup (SQLite): ${backupSeconds.toFixed(1)} s, archive ${megabytes(backup.size)}`);

  const [, sqliteSeconds] = await timed(() =>
    restoreBackup(archive, { dataDir: path.join(root, "restored"), storage: storageIn(path.join(root, "restored")) }),
  );
  console.log(`Restore into an empty SQLite folder: ${sqliteSeconds.toFixed(1)} s`);
  if (values.postgres) {
    const [, pgSeconds] = await timed(() =>
      restoreBackup(archive, {
        dataDir: path.join(root, "restored-pg"),
        databaseUrl: values.postgres,
        storage: storageIn(path.join(root, "restored-pg")),
      }),
    );
    console.log(`Restore into an empty PostgreSQL database: ${pgSeconds.toFixed(1)} s`);
  }
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}

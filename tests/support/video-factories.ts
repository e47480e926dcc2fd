import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { recogniseMedia } from "#app/domains/media/upload.server.ts";
import { createVideoFromUpload } from "#app/domains/videos/video-upload.server.ts";
import { factoryActor } from "./gallery-factories.ts";
import { mp4Like, pngPicture } from "./media-fixtures.ts";

/**
 * An uploaded video as the admin's upload makes it (an MP4 file, and a poster unless `poster: false`), through
 * createVideoFromUpload: its files are stored in `storage` under the names the site gives them. Answers its id.
 */
export async function createUploadedVideo(
  db: Kysely<Database>,
  storage: FileStorage,
  options: { title: string; poster?: boolean; active?: boolean },
): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-video-factory-"));
  try {
    const files: Record<string, Buffer> = { video: mp4Like(4000) };
    if (options.poster !== false) files.poster = await pngPicture(800, 450);
    const result = await createVideoFromUpload(
      db,
      factoryActor,
      {
        fields: {
          intent: "create",
          title: options.title,
          title_de: "",
          ...(options.active === false ? {} : { active: "on" }),
        },
        files: Object.entries(files).map(([fieldName, bytes]) => {
          const file = path.join(dir, fieldName);
          fs.writeFileSync(file, bytes);
          return {
            fieldName,
            path: file,
            originalName: `${fieldName}.bin`,
            size: bytes.length,
            declaredType: "application/octet-stream",
            recognised: recogniseMedia(bytes),
          };
        }),
        cleanup: async () => {},
      },
      { videoMaxBytes: 1024 * 1024, posterMaxBytes: 1024 * 1024, storage },
    );
    if (!result.ok) throw new Error(`The video was refused: ${JSON.stringify(result)}`);
    return result.id;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

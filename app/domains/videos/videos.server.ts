import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import {
  type ContentMeta,
  type ContentResult,
  type ContentRow,
  contentMeta,
  contentService,
  localized,
} from "#app/domains/content/content.server.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import { type ImageDisplay, imageSources } from "#app/domains/media/image-display.ts";
import { deleteImageRow, removeImageFiles } from "#app/domains/media/image-rows.server.ts";
import { type SweepOptions, sweepUnreferenced } from "#app/domains/media/image-sweeps.server.ts";
import { type FileStorage, publicUrl } from "#app/domains/media/storage.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import type { VideoData, VideoPlayerData } from "./video-data.ts";
import { canonicalVideoUrl, embedPlayerUrl, parseVideoUrl } from "./video-url.ts";
import { videoSchema } from "./videos-schema.ts";

/** Where uploaded video files are stored; each upload gets a new random name, so the URL never changes content. */
export const VIDEO_FILE_PREFIX = "public/videos/";

function describeVideo(row: ContentRow<"videos">): string {
  return JSON.stringify({
    title: row.title,
    title_de: row.title_de,
    description: row.description,
    description_de: row.description_de,
    embed_url: row.embed_url,
    file_key: row.file_key,
    poster_image_id: row.poster_image_id,
  });
}

const service = contentService({
  table: "videos",
  area: "videos",
  schema: videoSchema,
  columns: (input) => {
    const embed = input.embed_url === "" ? null : parseVideoUrl(input.embed_url);
    return {
      title: input.title,
      title_de: input.title_de,
      description: input.description,
      description_de: input.description_de,
      embed_url: embed ? canonicalVideoUrl(embed) : null,
    };
  },
  target: (row) => row.title,
  describe: describeVideo,
  // The poster's row goes with the video; its files and the video file once the delete is committed.
  onDelete: async (trx, row, storage) => {
    const posterKeys = row.poster_image_id ? await deleteImageRow(trx, row.poster_image_id) : null;
    return async () => {
      if (posterKeys) await removeImageFiles(posterKeys, storage);
      if (row.file_key) await storage.remove(row.file_key);
    };
  },
});

const urlRequired = { embed_url: "admin.videos.error.urlRequired" };

function hasUrl(fields: Record<string, unknown>): boolean {
  return typeof fields.embed_url === "string" && fields.embed_url.trim() !== "";
}

/** The answer for a video without file and URL: every field error at once, the missing URL among them. */
function missingUrl(fields: Record<string, unknown>): ContentResult {
  const checked = service.validate(fields);
  return {
    ok: false,
    reason: "invalid",
    fieldErrors: checked.ok ? urlRequired : { ...checked.fieldErrors, ...urlRequired },
  };
}

/**
 * The generic content flows, with the one rule of videos on top: a video is either a YouTube/Vimeo URL
 * or an uploaded file, so a video without a file needs a URL.
 */
export const videosService = {
  ...service,
  async create(
    db: Kysely<Database>,
    actor: AuditActor,
    fields: Record<string, unknown>,
    extra: { file_key?: string; file_type?: string; poster_image_id?: string | null } = {},
    /** Stores the uploaded poster's row in the video's transaction (see createVideoFromUpload). */
    prepare?: (trx: Transaction<Database>) => Promise<{ poster_image_id?: string }>,
  ): Promise<ContentResult> {
    if (!extra.file_key && !hasUrl(fields)) return missingUrl(fields);
    // An uploaded file is the video; a URL sent along with it is ignored.
    return service.create(db, actor, extra.file_key ? { ...fields, embed_url: "" } : fields, extra, prepare);
  },
  async update(
    db: Kysely<Database>,
    actor: AuditActor,
    id: string,
    fields: Record<string, unknown>,
  ): Promise<ContentResult> {
    const row = await service.find(db, id);
    if (!row) return { ok: false, reason: "not-found" };
    if (row.file_key) return service.update(db, actor, id, { ...fields, embed_url: "" });
    if (!hasUrl(fields)) return missingUrl(fields);
    return service.update(db, actor, id, fields);
  },
};

/**
 * Gives a video a new poster (an `images` row made by storeImage), or none (`imageId` null). The old poster's
 * row goes in the same transaction and its files after it. Answers not-found (and changes nothing) for an
 * unknown video, and no-poster (changing nothing) when asked to remove a poster the video does not have.
 */
export async function setVideoPoster(
  db: Kysely<Database>,
  actor: AuditActor,
  id: string,
  imageId: string | null,
  storage: FileStorage,
): Promise<ContentResult | { ok: false; reason: "no-poster"; target: string }> {
  let oldKeys: string[] | null = null;
  const result = await db.transaction().execute(async (trx) => {
    const row = await service.find(trx, id);
    if (!row) return { ok: false, reason: "not-found" } as const;
    if (imageId === null && row.poster_image_id === null) {
      return { ok: false, reason: "no-poster", target: row.title } as const;
    }
    await trx
      .updateTable("videos")
      .set({ poster_image_id: imageId, updated_at: new Date() })
      .where("id", "=", id)
      .execute();
    if (row.poster_image_id) oldKeys = await deleteImageRow(trx, row.poster_image_id);
    await recordAudit(trx, actor, {
      action: "videos.poster",
      target: row.title,
      oldValue: row.poster_image_id,
      newValue: imageId,
    });
    return { ok: true, id, target: row.title } as const;
  });
  // Committed: a leftover file is logged, not an error (the start-up image sweep removes it).
  try {
    await removeImageFiles(oldKeys, storage);
  } catch (error) {
    getLogger().warn({ err: error }, "Could not remove the replaced poster's files");
  }
  return result;
}

/** Takes a video's poster away (its image row and files): the video shows its title on the plain box again. */
export function removeVideoPoster(db: Kysely<Database>, actor: AuditActor, id: string, storage: FileStorage) {
  return setVideoPoster(db, actor, id, null, storage);
}

export type VideoRow = ContentRow<"videos">;

/** The posters of the rows, by image id, in one query. */
async function postersOf(db: Kysely<Database>, rows: VideoRow[]): Promise<Map<string, ImageDisplay>> {
  const ids = rows.map((row) => row.poster_image_id).filter((id) => id !== null);
  if (ids.length === 0) return new Map();
  const images = await db
    .selectFrom("images")
    .select(["id", "width", "height", "placeholder", "variants"])
    .where("id", "in", ids)
    .execute();
  return new Map(images.map((image) => [image.id, imageForDisplay(image)]));
}

export type AdminVideo = ContentMeta & {
  title: string;
  title_de: string;
  description: string;
  description_de: string;
  embed_url: string;
  /** "youtube", "vimeo" or "file". */
  source: "youtube" | "vimeo" | "file";
  /** A small poster for the list, or null. */
  posterSrc: string | null;
};

export async function listVideosForAdmin(db: Kysely<Database>): Promise<AdminVideo[]> {
  const rows = await service.listAll(db);
  const posters = await postersOf(db, rows);
  return rows.map((row) => ({
    ...contentMeta(row),
    title: row.title,
    title_de: row.title_de,
    description: row.description,
    description_de: row.description_de,
    embed_url: row.embed_url ?? "",
    source: row.file_key ? "file" : (parseVideoUrl(row.embed_url ?? "")?.host ?? "file"),
    posterSrc: row.poster_image_id ? (posterSrcOf(posters.get(row.poster_image_id)) ?? null) : null,
  }));
}

function posterSrcOf(poster: ImageDisplay | undefined): string | undefined {
  return poster ? imageSources(poster).fallback.src : undefined;
}

function playerOf(row: VideoRow): VideoPlayerData | null {
  if (row.file_key) return { kind: "file", src: publicUrl(row.file_key), type: row.file_type ?? "video/mp4" };
  const embed = parseVideoUrl(row.embed_url ?? "");
  return embed
    ? { kind: "embed", host: embed.host, src: embedPlayerUrl(embed), pageUrl: canonicalVideoUrl(embed) }
    : null;
}

async function toPublicVideos(db: Kysely<Database>, rows: VideoRow[], lang: Language): Promise<VideoData[]> {
  const posters = await postersOf(db, rows);
  const videos: VideoData[] = [];
  for (const row of rows) {
    const player = playerOf(row);
    if (!player) continue;
    videos.push({
      id: row.id,
      title: localized(row.title, row.title_de, lang),
      description: localized(row.description, row.description_de, lang),
      poster: row.poster_image_id ? (posters.get(row.poster_image_id) ?? null) : null,
      player,
    });
  }
  return videos;
}

/** Active videos in display order in the visitor's language. */
export async function listPublishedVideos(db: Kysely<Database>, lang: Language): Promise<VideoData[]> {
  return toPublicVideos(db, await service.listActive(db), lang);
}

/** The active video added last, for the start page's highlights. */
export async function latestVideo(db: Kysely<Database>, lang: Language): Promise<VideoData | null> {
  const row = await db
    .selectFrom("videos")
    .selectAll()
    .where("active", "=", true)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row ? ((await toPublicVideos(db, [row], lang))[0] ?? null) : null;
}

/**
 * Removes uploaded video files that no video row names (left by a crash between storing the file and writing
 * the row, or between deleting the row and the file), once older than the grace period so uploads in flight
 * are spared. Runs at start-up beside the image sweep.
 */
export async function sweepOrphanVideoFiles(db: Kysely<Database>, options: SweepOptions): Promise<string[]> {
  const rows = await db.selectFrom("videos").select("file_key").where("file_key", "is not", null).execute();
  const referenced = new Set(rows.map((row) => row.file_key).filter((key) => key !== null));
  return sweepUnreferenced(VIDEO_FILE_PREFIX, referenced, options);
}

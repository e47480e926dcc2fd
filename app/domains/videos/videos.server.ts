import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { groupsOfItems, readableBy } from "#app/domains/access/access.server.ts";
import { type ContentVisibility, type Reader, VISITOR } from "#app/domains/access/reader.ts";
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
import { type ImageDisplay, imageSources, MEMBER_MEDIA_PATH } from "#app/domains/media/image-display.ts";
import { deleteImageRow, parseVariants, removeImageFiles } from "#app/domains/media/image-rows.server.ts";
import { type SweepOptions, sweepUnreferenced } from "#app/domains/media/image-sweeps.server.ts";
import { copyVariants, MEMBER_PREFIX } from "#app/domains/media/member-files.server.ts";
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
  // A restricted video's new poster joins its member folder before the rows name it (video-access.server.ts): its
  // sizes never answer at public names once the video is shown.
  const placed = imageId === null ? null : await placePoster(db, storage, id, imageId);
  const result = await db.transaction().execute(async (trx) => {
    const row = await service.find(trx, id);
    if (!row) return { ok: false, reason: "not-found" } as const;
    if (imageId === null && row.poster_image_id === null) {
      return { ok: false, reason: "no-poster", target: row.title } as const;
    }
    if (imageId !== null && row.private_folder !== (placed?.folder ?? null)) {
      // Its access changed while the poster was copied: the folder read is no longer the video's (try again).
      return { ok: false, reason: "stale" } as const;
    }
    await trx
      .updateTable("videos")
      .set({ poster_image_id: imageId, updated_at: new Date() })
      .where("id", "=", id)
      .execute();
    if (row.poster_image_id) oldKeys = await deleteImageRow(trx, row.poster_image_id);
    if (imageId !== null && placed?.folder) {
      await trx
        .updateTable("images")
        .set({ variants: JSON.stringify(placed.variants), private_folder: placed.folder })
        .where("id", "=", imageId)
        .execute();
    }
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
    if (placed?.folder) await storage.remove(result.ok ? placed.old : placed.copied);
    // In a member folder the old poster's sizes may have the new one's names (the same picture uploaded again:
    // names are content hashes, and the folder is the video's, not the image's): those are the new poster's now.
    const kept = new Set(result.ok ? (placed?.variants.map((variant) => variant.key) ?? []) : []);
    await removeImageFiles((oldKeys as string[] | null)?.filter((key) => !kept.has(key)) ?? null, storage);
  } catch (error) {
    getLogger().warn({ err: error }, "Could not remove the replaced poster's files");
  }
  return result;
}

/**
 * A new poster's sizes copied into its video's member folder, if the video is restricted (else nothing to do).
 * `copied` leaves out names the video's present poster already has there (the same picture again): a refused
 * change removes what it copied, and must not take those.
 */
async function placePoster(db: Kysely<Database>, storage: FileStorage, videoId: string, imageId: string) {
  const video = await db
    .selectFrom("videos as v")
    .leftJoin("images as i", "i.id", "v.poster_image_id")
    .select(["v.private_folder", "i.variants"])
    .where("v.id", "=", videoId)
    .executeTakeFirst();
  if (!video?.private_folder) return { folder: null, variants: [], old: [], copied: [] };
  const image = await db.selectFrom("images").select("variants").where("id", "=", imageId).executeTakeFirstOrThrow();
  const present = new Set(video.variants ? parseVariants(video.variants).map((variant) => variant.key) : []);
  const placed = await copyVariants(storage, parseVariants(image.variants), imageId, video.private_folder);
  return { folder: video.private_folder, ...placed, copied: placed.copied.filter((key) => !present.has(key)) };
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
  /** Who may see it, and for groups which (issue 21). */
  visibility: ContentVisibility;
  groupIds: string[];
};

export async function listVideosForAdmin(db: Kysely<Database>): Promise<AdminVideo[]> {
  const rows = await service.listAll(db);
  const grouped = rows.filter((row) => row.visibility === "groups").map((row) => row.id);
  const [posters, groups] = await Promise.all([postersOf(db, rows), groupsOfItems(db, "video", grouped)]);
  return rows.map((row) => ({
    ...contentMeta(row),
    title: row.title,
    title_de: row.title_de,
    description: row.description,
    description_de: row.description_de,
    embed_url: row.embed_url ?? "",
    source: row.file_key ? "file" : (parseVideoUrl(row.embed_url ?? "")?.host ?? "file"),
    posterSrc: row.poster_image_id ? (posterSrcOf(posters.get(row.poster_image_id)) ?? null) : null,
    visibility: row.visibility,
    groupIds: (groups.get(row.id) ?? []).map((group) => group.id),
  }));
}

function posterSrcOf(poster: ImageDisplay | undefined): string | undefined {
  return poster ? imageSources(poster).fallback.src : undefined;
}

/** The address of an uploaded file: its public one, or a restricted video's at /media/members/ (checked there). */
function fileUrlOf(key: string): string {
  return key.startsWith(MEMBER_PREFIX) ? `${MEMBER_MEDIA_PATH}${key.slice(MEMBER_PREFIX.length)}` : publicUrl(key);
}

function playerOf(row: VideoRow): VideoPlayerData | null {
  if (row.file_key) return { kind: "file", src: fileUrlOf(row.file_key), type: row.file_type ?? "video/mp4" };
  const embed = parseVideoUrl(row.embed_url ?? "");
  return embed
    ? { kind: "embed", host: embed.host, src: embedPlayerUrl(embed), pageUrl: canonicalVideoUrl(embed) }
    : null;
}

async function toPublicVideos(
  db: Kysely<Database>,
  rows: VideoRow[],
  lang: Language,
  reader: Reader,
): Promise<VideoData[]> {
  const grouped =
    reader.kind === "visitor" ? [] : rows.filter((row) => row.visibility === "groups").map((row) => row.id);
  const [posters, groups] = await Promise.all([postersOf(db, rows), groupsOfItems(db, "video", grouped)]);
  // A badge names only the reader's own groups (an admin's: all): a group's name is the admin's, not the members'.
  const named = (group: { id: string }) =>
    reader.kind === "admin" || (reader.kind === "member" && reader.groupIds.includes(group.id));
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
      visibility: row.visibility,
      groups: (groups.get(row.id) ?? []).filter(named).map((group) => group.name),
    });
  }
  return videos;
}

/** The active videos `reader` may see (a visitor, or a read given no reader: those for everyone), in display order, in the reader's language. */
export async function listPublishedVideos(
  db: Kysely<Database>,
  lang: Language,
  reader: Reader = VISITOR,
): Promise<VideoData[]> {
  const rows = await db
    .selectFrom("videos as v")
    .selectAll("v")
    .where("v.active", "=", true)
    .where(readableBy(reader, "video", "v"))
    .orderBy("v.sort_order")
    .orderBy("v.created_at")
    .execute();
  return toPublicVideos(db, rows, lang, reader);
}

/** The active video added last that `reader` may see, for the start page's highlights. */
export async function latestVideo(
  db: Kysely<Database>,
  lang: Language,
  reader: Reader = VISITOR,
): Promise<VideoData | null> {
  const row = await db
    .selectFrom("videos as v")
    .selectAll("v")
    .where("v.active", "=", true)
    .where(readableBy(reader, "video", "v"))
    .orderBy("v.created_at", "desc")
    .executeTakeFirst();
  return row ? ((await toPublicVideos(db, [row], lang, reader))[0] ?? null) : null;
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

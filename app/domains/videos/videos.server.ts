import type { Kysely } from "kysely";
import type { VideoData, VideoPlayerData } from "#app/components/video-player.tsx";
import type { Database } from "#app/db/schema.ts";
import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import {
  type ContentMeta,
  type ContentResult,
  type ContentRow,
  contentMeta,
  contentService,
  localized,
} from "#app/domains/content/content.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { canonicalVideoUrl, embedPlayerUrl, parseVideoUrl } from "./video-url.ts";
import { videoSchema } from "./videos-schema.ts";

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
  describe: (row) =>
    JSON.stringify({
      title: row.title,
      title_de: row.title_de,
      description: row.description,
      description_de: row.description_de,
      embed_url: row.embed_url,
      file_key: row.file_key,
      poster_image_id: row.poster_image_id,
    }),
});

const urlRequired: ContentResult = {
  ok: false,
  reason: "invalid",
  fieldErrors: { embed_url: "admin.videos.error.urlRequired" },
};

function hasUrl(fields: Record<string, unknown>): boolean {
  return typeof fields.embed_url === "string" && fields.embed_url.trim() !== "";
}

/**
 * The generic content flows, with the one rule of videos on top: a video is either a YouTube/Vimeo URL
 * or an uploaded file, so a video without a file needs a URL.
 */
export const videosService = {
  ...service,
  create(
    db: Kysely<Database>,
    actor: AuditActor,
    fields: Record<string, unknown>,
    extra: { file_key?: string; file_type?: string; poster_image_id?: string | null } = {},
  ): Promise<ContentResult> {
    if (!extra.file_key && !hasUrl(fields)) {
      const checked = service.validate(fields);
      return Promise.resolve(
        checked.ok
          ? urlRequired
          : { ok: false, reason: "invalid", fieldErrors: { ...checked.fieldErrors, ...urlRequired.fieldErrors } },
      );
    }
    // An uploaded file is the video; a URL sent along with it is ignored.
    return service.create(db, actor, extra.file_key ? { ...fields, embed_url: "" } : fields, extra);
  },
  async update(
    db: Kysely<Database>,
    actor: AuditActor,
    id: string,
    fields: Record<string, unknown>,
    extra: { poster_image_id?: string | null } = {},
  ): Promise<ContentResult> {
    const row = await service.find(db, id);
    if (!row) return { ok: false, reason: "not-found" };
    if (row.file_key) return service.update(db, actor, id, { ...fields, embed_url: "" }, extra);
    if (!hasUrl(fields)) {
      const checked = service.validate(fields);
      return checked.ok
        ? urlRequired
        : { ok: false, reason: "invalid", fieldErrors: { ...checked.fieldErrors, ...urlRequired.fieldErrors } };
    }
    return service.update(db, actor, id, fields, extra);
  },
};

export type VideoRow = ContentRow<"videos">;

export type AdminVideo = ContentMeta & {
  title: string;
  title_de: string;
  description: string;
  description_de: string;
  embed_url: string;
  /** "youtube", "vimeo" or "file". */
  source: string;
  posterUrl: string | null;
};

/** Where the page finds a video's poster image and uploaded file; the media layer provides it. */
export type VideoMedia = {
  posterUrl: (row: VideoRow) => Promise<string | null>;
  fileUrl: (row: VideoRow) => string;
};

export async function adminVideos(db: Kysely<Database>, media: VideoMedia): Promise<AdminVideo[]> {
  const rows = await service.listAll(db);
  return Promise.all(
    rows.map(async (row) => ({
      ...contentMeta(row),
      title: row.title,
      title_de: row.title_de,
      description: row.description,
      description_de: row.description_de,
      embed_url: row.embed_url ?? "",
      source: row.file_key ? "file" : (parseVideoUrl(row.embed_url ?? "")?.host ?? "file"),
      posterUrl: await media.posterUrl(row),
    })),
  );
}

export type { VideoData as PublicVideo, VideoPlayerData as VideoPlayer } from "#app/components/video-player.tsx";

function playerOf(row: VideoRow, media: VideoMedia): VideoPlayerData | null {
  if (row.file_key) return { kind: "file", src: media.fileUrl(row), type: row.file_type ?? "video/mp4" };
  const embed = parseVideoUrl(row.embed_url ?? "");
  return embed ? { kind: "embed", host: embed.host, src: embedPlayerUrl(embed) } : null;
}

async function toPublicVideo(row: VideoRow, lang: Language, media: VideoMedia): Promise<VideoData | null> {
  const player = playerOf(row, media);
  if (!player) return null;
  return {
    id: row.id,
    title: localized(row.title, row.title_de, lang),
    description: localized(row.description, row.description_de, lang),
    posterUrl: await media.posterUrl(row),
    player,
  };
}

/** Active videos in display order in the visitor's language. */
export async function publicVideos(
  db: Kysely<Database>,
  lang: Language,
  media: VideoMedia,
  limit?: number,
): Promise<VideoData[]> {
  const rows = await service.listActive(db, limit);
  const videos = await Promise.all(rows.map((row) => toPublicVideo(row, lang, media)));
  return videos.filter((video) => video !== null);
}

/** The active video added last, for the start page's highlights. */
export async function latestVideo(db: Kysely<Database>, lang: Language, media: VideoMedia): Promise<VideoData | null> {
  const row = await db
    .selectFrom("videos")
    .selectAll()
    .where("active", "=", true)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row ? toPublicVideo(row, lang, media) : null;
}

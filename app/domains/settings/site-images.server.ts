import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import { contentHash, decodeOptions, ImageError, inspectImage } from "#app/domains/media/image-encode.server.ts";
import { type SweepOptions, sweepUnreferenced } from "#app/domains/media/image-sweeps.server.ts";
import { type FileStorage, PUBLIC_MEDIA_PATH, publicUrl } from "#app/domains/media/storage.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { loadSharp } from "#app/lib/sharp.server.ts";
import { SITE_IMAGE_SETTING } from "./setting-registry.ts";
import { readSettings } from "./settings.server.ts";
import { saveSettings } from "./settings-admin.server.ts";
import type { SettingKey } from "./settings-defaults.ts";
import { FAVICON_SIZES, faviconUrls, SITE_IMAGE_PREFIX, type SiteImageKind } from "./site-images.ts";

type RenderedFile = { key: string; data: Buffer };

const decode = async (source: string | Buffer) =>
  // EXIF orientation applied; sharp writes no metadata (camera, GPS) unless asked to.
  (await loadSharp())(source, decodeOptions).rotate();

/**
 * The files made from an upload, named by a hash of their content (served forever cacheable):
 * - logo: at most 128 px high and 1024 px wide, WebP (keeps transparency);
 * - favicon: square PNGs of 32 (browser tab), 180 (apple-touch-icon), 192 and 512 px (Android, installed sites);
 * - share image: 1200×630 JPEG, the size link previews expect, cropped from the middle.
 */
async function render(kind: SiteImageKind, source: string): Promise<{ files: RenderedFile[]; url: string }> {
  if (kind === "logo") {
    const data = await (await decode(source))
      .resize({ height: 128, width: 1024, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 90 })
      .toBuffer();
    const key = `${SITE_IMAGE_PREFIX}logo-${contentHash(data)}.webp`;
    return { files: [{ key, data }], url: publicUrl(key) };
  }
  if (kind === "share-image") {
    const data = await (await decode(source))
      .resize({ width: 1200, height: 630, fit: "cover", position: "attention" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
    const key = `${SITE_IMAGE_PREFIX}share-${contentHash(data)}.jpg`;
    return { files: [{ key, data }], url: publicUrl(key) };
  }
  const largest = await (await decode(source))
    .resize({ width: 512, height: 512, fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
  const hash = contentHash(largest);
  const files: RenderedFile[] = [];
  for (const size of FAVICON_SIZES) {
    const data = size === 512 ? largest : await (await loadSharp())(largest).resize(size, size).png().toBuffer();
    files.push({ key: `${SITE_IMAGE_PREFIX}favicon-${hash}-${size}.png`, data });
  }
  const url = publicUrl(files[0]?.key ?? "");
  return { files, url };
}

/** The storage keys behind a setting's value when it names an uploaded site image; [] for anything else. */
export function siteImageKeys(value: string): string[] {
  const prefix = `${PUBLIC_MEDIA_PATH}${SITE_IMAGE_PREFIX.slice("public/".length)}`;
  if (!value.startsWith(prefix)) return [];
  const urls = faviconUrls(value)?.map((icon) => icon.href) ?? [value];
  return urls.map((url) => `public/${url.slice(PUBLIC_MEDIA_PATH.length)}`);
}

/**
 * Removes the files of a site image that a setting no longer names (a replaced logo, favicon or share image).
 * A file that one of the image settings in `settings` still names stays (the same upload may serve as logo
 * and share image).
 */
export async function removeReplacedSiteImage(
  oldValue: string | undefined,
  newValue: string,
  settings: Partial<Record<SettingKey, string>>,
  storage: FileStorage,
): Promise<void> {
  if (!oldValue || oldValue === newValue) return;
  const keep = new Set(siteImageKeys(newValue));
  for (const key of Object.values(SITE_IMAGE_SETTING)) {
    for (const file of siteImageKeys(settings[key] ?? "")) keep.add(file);
  }
  const stale = siteImageKeys(oldValue).filter((key) => !keep.has(key));
  if (stale.length === 0) return;
  try {
    await storage.remove(stale);
  } catch (error) {
    getLogger().warn({ err: error }, "Could not remove the replaced site image files");
  }
}

/** The image settings among `values` that name an uploaded site image (/media/site/…) whose files are missing. */
export async function missingSiteImages(
  values: Partial<Record<SettingKey, string>>,
  storage: FileStorage,
): Promise<SettingKey[]> {
  const missing: SettingKey[] = [];
  for (const key of Object.values(SITE_IMAGE_SETTING)) {
    const value = values[key];
    if (value === undefined) continue;
    for (const file of siteImageKeys(value)) {
      let found = false;
      try {
        found = (await storage.stat(file)) !== null;
      } catch {
        // An invalid storage key names no file either.
      }
      if (!found) {
        missing.push(key);
        break;
      }
    }
  }
  return missing;
}

export type SiteImageResult = { url: string; changed: boolean };

/**
 * Turns an uploaded file (a temp file, checked by content) into the site image of the kind, stores it and
 * points the setting at it, with an audit entry. The files the setting named before are removed.
 * Throws ImageError for a file that is not a usable image.
 */
export async function storeSiteImage(
  db: Kysely<Database>,
  actor: AuditActor,
  kind: SiteImageKind,
  sourcePath: string,
  storage: FileStorage,
): Promise<SiteImageResult> {
  await inspectImage(sourcePath);
  let rendered: Awaited<ReturnType<typeof render>>;
  try {
    rendered = await render(kind, sourcePath);
  } catch (error) {
    if (error instanceof ImageError) throw error;
    throw new ImageError("unreadable", "the image could not be read (damaged or incomplete file)");
  }
  // Same content, same name: writing it again is harmless.
  for (const file of rendered.files) await storage.save(file.key, file.data, { overwrite: true });
  const setting = SITE_IMAGE_SETTING[kind];
  const { changed, previous, settings } = await saveSettings(db, actor, { [setting]: rendered.url });
  await removeReplacedSiteImage(previous[setting], rendered.url, settings, storage);
  return { url: rendered.url, changed: changed.length > 0 };
}

/**
 * Removes files under public/site/ that none of the image settings names (left by a crash between storing an
 * upload and saving its setting, or between saving and removing the replaced files), once older than the
 * grace period so an upload in flight is spared. Runs at start-up beside the other sweeps (server/app.ts).
 */
export async function sweepOrphanSiteImages(db: Kysely<Database>, options: SweepOptions): Promise<string[]> {
  const settings = await readSettings(db);
  const referenced = new Set(Object.values(SITE_IMAGE_SETTING).flatMap((key) => siteImageKeys(settings[key])));
  return sweepUnreferenced(SITE_IMAGE_PREFIX, referenced, options);
}

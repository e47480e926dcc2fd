import { createHash } from "node:crypto";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { PUBLIC_MEDIA_PATH } from "#app/domains/media/storage.server.ts";
import { isSitePath } from "#app/domains/settings/settings-form.ts";
import { faviconUrls } from "#app/domains/settings/site-images.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { loadSharp } from "#app/lib/sharp.server.ts";
import shippedIcon from "../../public/favicon.svg?raw";

/**
 * What `/favicon.ico` answers. Pages link their icons, but feed readers, bookmark managers, crawlers and a
 * browser opening an image or a PDF of the site ask for that fixed name, and got a 404. The answer is the site's
 * favicon as a 32 px PNG (every browser takes a PNG there; `Content-Type` says what it is): the uploaded one's
 * 32 px file, or the shipped icon (public/favicon.svg) drawn at that size. Not cacheable for long: the address
 * stays when the owner uploads a new favicon.
 */
export const FAVICON_ICO_CACHE_CONTROL = "public, max-age=3600";

type Icon = { data: Buffer; etag: string };

let shipped: Promise<Icon> | null = null;

function iconOf(data: Buffer): Icon {
  return { data, etag: `"${createHash("sha256").update(data).digest("hex").slice(0, 16)}"` };
}

/** The shipped icon drawn once, when first asked for (a failed drawing is tried again next time). */
function shippedPng(): Promise<Icon> {
  shipped ??= loadSharp()
    .then((sharp) => sharp(Buffer.from(shippedIcon), { density: 144 }).resize(32, 32).png().toBuffer())
    .then(iconOf)
    .catch((error: unknown) => {
      shipped = null;
      throw error;
    });
  return shipped;
}

/** The last favicon setting found unreadable: crawlers ask for /favicon.ico all the time, the log says it once. */
let unreadableWarned: string | null = null;

/**
 * Where a typed favicon address may send the browser: a path on this site (the settings' own rule, checked again
 * here for values written some other way) that is not `/favicon.ico` itself in any spelling, which would loop.
 */
function redirectTarget(typed: string): string | null {
  if (!typed || faviconUrls(typed) || !isSitePath(typed)) return null;
  const url = new URL(typed, "http://site.invalid");
  if (url.origin !== "http://site.invalid" || url.pathname.toLowerCase() === "/favicon.ico") return null;
  return typed;
}

async function uploadedPng(setting: string, storage: FileStorage): Promise<Icon | null> {
  const href = faviconUrls(setting)?.find((icon) => icon.sizes === "32x32")?.href;
  if (!href) return null;
  const key = `public/${href.slice(PUBLIC_MEDIA_PATH.length)}`;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.readStream(key)) chunks.push(chunk as Buffer);
    return iconOf(Buffer.concat(chunks));
  } catch (error) {
    // A favicon whose files are gone (see missingSiteImages) still leaves the site an icon.
    if (unreadableWarned !== setting) {
      unreadableWarned = setting;
      getLogger().warn(
        { err: error, key },
        "The uploaded favicon could not be read; /favicon.ico shows the shipped one",
      );
    }
    return null;
  }
}

/**
 * The answer to `/favicon.ico` for the `site_favicon_url` setting: the uploaded icon, a redirect to an icon
 * address the owner typed in (a path on this site), or the shipped icon.
 */
export async function faviconIcoResponse(setting: string, request: Request, storage: FileStorage): Promise<Response> {
  const typed = setting.trim();
  const target = redirectTarget(typed);
  if (target) {
    return new Response(null, {
      status: 302,
      headers: { Location: target, "Cache-Control": FAVICON_ICO_CACHE_CONTROL },
    });
  }
  const icon = (typed ? await uploadedPng(typed, storage) : null) ?? (await shippedPng());
  const headers = {
    "Content-Type": "image/png",
    "Cache-Control": FAVICON_ICO_CACHE_CONTROL,
    ETag: icon.etag,
    "X-Content-Type-Options": "nosniff",
  };
  if (request.headers.get("If-None-Match") === icon.etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(icon.data), {
    headers: { ...headers, "Content-Length": String(icon.data.length) },
  });
}

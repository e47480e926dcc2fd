import { data, type RouterContextProvider, redirect } from "react-router";
import { planAlbum } from "#app/components/albums/album-view.tsx";
import { findSharedAlbum } from "#app/domains/albums/albums-public.server.ts";
import { publicWatermark } from "#app/domains/gallery/public-watermark.server.ts";
import { loadSharedPage } from "#app/domains/posts/blog-pages.server.ts";
import {
  checkSharePassword,
  noteShareUse,
  openShareLink,
  SHARE_PATH,
  SHARE_UNLOCK_MS,
  shareFilesCookieName,
  signShareFiles,
  signShareUnlock,
  verifyShareUnlock,
} from "#app/domains/shares/share-links.server.ts";
import { sharePasswordSchema } from "#app/domains/shares/share-schema.ts";
import { translatorFor } from "#app/i18n/i18n.server.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { languageOf, readCookie } from "#app/lib/preferences.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import { rowIdOrNull } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { PRIVATE_CACHE_CONTROL, requestSettings } from "#app/web/site-context.server.ts";

/*
 * `/s/<token>`: a share link's page (issue 21). The link is the only way in: never kept by any cache, never indexed,
 * and its address (which holds the token) never sent on as a Referer. An unknown, revoked or expired link answers as
 * a missing page; a link with a password asks for it first and remembers a right one in this browser for a while.
 */

/** Its Referrer-Policy (no-referrer: the address holds the token) is set with the security headers (server/app.ts). */
export const SHARE_HEADERS = { "Cache-Control": PRIVATE_CACHE_CONTROL, "X-Robots-Tag": "noindex, nofollow" };

type Args = { request: Request; params: { token?: string }; context: Readonly<RouterContextProvider> };

/** The cookie that remembers a right password, one per link, sent only to the share pages. */
const unlockCookieName = (shareId: string) => `share_${shareId.replaceAll("-", "")}`;

export async function loadSharePage({ request, params, context }: Args) {
  const runtime = runtimeOf(context);
  const db = runtime.database.db;
  const share = await openShareLink(db, params.token ?? "");
  if (!share) throw data(null, { status: 404, headers: SHARE_HEADERS });
  const unlocked =
    !share.hasPassword ||
    verifyShareUnlock(
      runtime.shareSecret,
      share.id,
      readCookie(request.headers.get("Cookie"), unlockCookieName(share.id)),
    );
  if (!unlocked) {
    return data({ locked: true as const, post: null, album: null, watermark: null }, { headers: SHARE_HEADERS });
  }
  const { lang } = languageOf(request);
  const settings = await requestSettings(context);
  const watermark = publicWatermark(settings);
  if (share.kind === "album") {
    const url = new URL(request.url);
    const page = url.searchParams.get("page");
    const album = await findSharedAlbum(db, {
      albumId: share.itemId,
      lang,
      page: page !== null && /^\d{1,7}$/.test(page) ? Number(page) : undefined,
      imageId: rowIdOrNull(url.searchParams.get("image")),
    });
    if (!album) throw data(null, { status: 404, headers: SHARE_HEADERS });
    await noteShareUse(db, share.id);
    const body = {
      locked: false as const,
      post: null,
      album: planAlbum(album),
      watermark,
      thumbnailTitles: settings.thumbnail_titles === "true",
    };
    return data(body, { headers: { ...SHARE_HEADERS, "Set-Cookie": filesCookie(runtime, share.id) } });
  }
  const post = await loadSharedPage(db, { lang, postId: share.itemId });
  if (!post) throw data(null, { status: 404, headers: SHARE_HEADERS });
  await noteShareUse(db, share.id);
  const headers = { ...SHARE_HEADERS, "Set-Cookie": filesCookie(runtime, share.id) };
  return data({ locked: false as const, post, album: null, watermark }, { headers });
}

/**
 * The shared album's or post's restricted pictures' files, for this browser, while the link stays open
 * (member-media.server.ts): a cookie sent only to `/media/members/`.
 */
function filesCookie(runtime: ReturnType<typeof runtimeOf>, shareId: string): string {
  const secure = runtime.env.baseUrl.startsWith("https://") ? "; Secure" : "";
  const value = signShareFiles(runtime.shareSecret, shareId);
  const age = SHARE_UNLOCK_MS / 1000;
  return `${shareFilesCookieName(shareId)}=${value}; Path=/media/members/; Max-Age=${age}; HttpOnly; SameSite=Lax${secure}`;
}

/** The password form: a right password unlocks the link in this browser; wrong ones are limited per address. */
export async function unlockShare({ request, params, context }: Args) {
  const runtime = runtimeOf(context);
  const t = translatorFor(languageOf(request).lang);
  const share = await openShareLink(runtime.database.db, params.token ?? "");
  if (!share) throw data(null, { status: 404, headers: SHARE_HEADERS });
  const parsed = sharePasswordSchema.safeParse(await readForm(request));
  if (!parsed.success) return data({ error: t("share.wrongPassword") }, { status: 400, headers: SHARE_HEADERS });
  // Counted per address, and per link from every address together (which a guesser with many addresses meets).
  const key = `${share.id}:${context.get(clientAddressContext)}`;
  let wait = await runtime.sharePasswordLimiter.begin(key);
  if (wait === 0) {
    wait = await runtime.shareLinkLimiter.begin(share.id);
    if (wait > 0) await runtime.sharePasswordLimiter.forgive(key);
  }
  if (wait > 0) {
    const headers = { ...SHARE_HEADERS, "Retry-After": String(Math.ceil(wait / 1000)) };
    return data({ error: t("share.tooManyTries") }, { status: 429, headers });
  }
  if (!(await checkSharePassword(share, parsed.data.password))) {
    return data({ error: t("share.wrongPassword") }, { status: 401, headers: SHARE_HEADERS });
  }
  await runtime.sharePasswordLimiter.forgive(key);
  await runtime.shareLinkLimiter.forgive(share.id);
  const secure = runtime.env.baseUrl.startsWith("https://") ? "; Secure" : "";
  const cookie = `${unlockCookieName(share.id)}=${signShareUnlock(runtime.shareSecret, share.id)}; Path=/s/; Max-Age=${
    SHARE_UNLOCK_MS / 1000
  }; HttpOnly; SameSite=Lax${secure}`;
  // Back to the link's own address (the request's may be its `.data` twin, with JavaScript).
  throw redirect(`${SHARE_PATH}${params.token}`, { status: 303, headers: { ...SHARE_HEADERS, "Set-Cookie": cookie } });
}

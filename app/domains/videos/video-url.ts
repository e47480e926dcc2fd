/** A video on YouTube or Vimeo, as recognised from a URL an admin pasted. */
export type VideoEmbed =
  | { host: "youtube"; id: string }
  | { host: "vimeo"; id: string /** The privacy hash of an unlisted video. */; hash?: string };

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;
const VIMEO_HASH = /^[0-9a-f]{6,20}$/i;
const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "music.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);
const VIMEO_HOSTS = new Set(["vimeo.com", "www.vimeo.com", "player.vimeo.com"]);

function youtube(url: URL): VideoEmbed | null {
  if (url.hostname === "youtu.be") {
    const id = url.pathname.split("/")[1] ?? "";
    return YOUTUBE_ID.test(id) ? { host: "youtube", id } : null;
  }
  if (!YOUTUBE_HOSTS.has(url.hostname)) return null;
  const [, first = "", second = ""] = url.pathname.split("/");
  const id =
    first === "watch"
      ? (url.searchParams.get("v") ?? "")
      : ["shorts", "embed", "live", "v"].includes(first)
        ? second
        : "";
  return YOUTUBE_ID.test(id) ? { host: "youtube", id } : null;
}

function vimeo(url: URL): VideoEmbed | null {
  if (!VIMEO_HOSTS.has(url.hostname)) return null;
  const parts = url.pathname.split("/").filter(Boolean);
  // player.vimeo.com/video/ID, vimeo.com/ID, vimeo.com/ID/HASH, vimeo.com/channels/name/ID, …/video/ID
  const index = parts.findIndex((part) => VIMEO_ID.test(part));
  if (index === -1) return null;
  if (url.hostname === "player.vimeo.com" && parts[0] !== "video") return null;
  const id = parts[index] ?? "";
  const hash = url.searchParams.get("h") ?? parts[index + 1];
  return hash && VIMEO_HASH.test(hash) ? { host: "vimeo", id, hash } : { host: "vimeo", id };
}

/** The video a YouTube (watch?v=, youtu.be/, shorts/, embed/) or Vimeo URL points to, or null. */
export function parseVideoUrl(input: string): VideoEmbed | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  url.hostname = url.hostname.toLowerCase();
  return youtube(url) ?? vimeo(url);
}

/** The URL stored for an embed: one canonical form per video. */
export function canonicalVideoUrl(embed: VideoEmbed): string {
  if (embed.host === "youtube") return `https://www.youtube.com/watch?v=${embed.id}`;
  return embed.hash ? `https://vimeo.com/${embed.id}/${embed.hash}` : `https://vimeo.com/${embed.id}`;
}

/** The privacy-enhanced player, loaded only after the visitor asked for it (hence autoplay). */
export function embedPlayerUrl(embed: VideoEmbed): string {
  if (embed.host === "youtube") return `https://www.youtube-nocookie.com/embed/${embed.id}?autoplay=1`;
  const hash = embed.hash ? `&h=${embed.hash}` : "";
  return `https://player.vimeo.com/video/${embed.id}?dnt=1&autoplay=1${hash}`;
}

/**
 * The icon names a link may have; the admin form offers them. Any other name shows the generic link icon.
 * Lucide has no brand logos, so brand names map to a fitting symbol (see components/link-icon.tsx).
 */
export const LINK_ICON_NAMES = [
  "link",
  "globe",
  "mail",
  "at-sign",
  "github",
  "gitlab",
  "code",
  "linkedin",
  "briefcase",
  "youtube",
  "vimeo",
  "video",
  "instagram",
  "camera",
  "image",
  "mastodon",
  "twitter",
  "bluesky",
  "facebook",
  "users",
  "message-circle",
  "send",
  "rss",
  "newspaper",
  "book",
  "pen",
  "music",
  "headphones",
  "podcast",
  "mic",
  "coffee",
  "heart",
  "star",
  "shopping-bag",
  "store",
  "calendar",
  "map-pin",
  "phone",
  "file-text",
  "download",
  "palette",
  "gamepad",
  "graduation-cap",
  "rocket",
  "house",
  "user",
] as const;

export type LinkIconName = (typeof LINK_ICON_NAMES)[number];

export function isKnownLinkIcon(name: string): name is LinkIconName {
  return (LINK_ICON_NAMES as readonly string[]).includes(name);
}

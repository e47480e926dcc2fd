import type { ContentVisibility } from "#app/db/schema.ts";

/*
 * Who is reading, for the one visibility rule (issue 21; access.server.ts is the rule in SQL). Client-safe: the
 * badges and the editor's choices use the same names.
 */

export type { ContentVisibility };

/** Everyone; any signed-in account; the accounts of the content's groups. Admins see everything. */
export const CONTENT_VISIBILITIES = ["everyone", "members", "groups"] as const satisfies readonly ContentVisibility[];

/** The kinds of content that may be restricted to groups (`content_groups.kind`). */
export type GroupedKind = "post" | "picture" | "album" | "video";

/** Who asks: a visitor without an account, a signed-in member with their groups, or an admin. */
export type Reader =
  | { kind: "visitor" }
  | { kind: "member"; userId: string; groupIds: readonly string[] }
  | { kind: "admin"; userId: string };

/** The reader of everything anonymous: feeds, the sitemap, the page cache's pages, share cards. */
export const VISITOR: Reader = Object.freeze({ kind: "visitor" });

/**
 * What a reader's answers depend on, as a short text for keys of kept values: two readers with the same class see
 * the same content (every visitor alike, every member of the same groups alike, every admin alike).
 */
export function readerClassOf(reader: Reader): string {
  if (reader.kind === "member") return `member:${[...reader.groupIds].sort().join(",")}`;
  return reader.kind;
}

export function isContentVisibility(value: unknown): value is ContentVisibility {
  return typeof value === "string" && (CONTENT_VISIBILITIES as readonly string[]).includes(value);
}

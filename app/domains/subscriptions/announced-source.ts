import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { Reader } from "#app/domains/access/reader.ts";

type Db = Kysely<Database> | Transaction<Database>;

/**
 * What announcements need of a kind of content. Albums add theirs to `SOURCES` in announcements.server.ts and call
 * `announceNewItem` when an album is published; nothing else changes.
 */
export type AnnouncedSource = {
  /** Whether the item is out at all (published, its time come), whoever reads. */
  isOut(db: Db, id: string, now: Date): Promise<boolean>;
  /** Whether `reader` may read it now: the kind's own read rule with `readableBy`, as its pages use. */
  readableBy(db: Db, id: string, reader: Reader, now: Date): Promise<boolean>;
  /** Its title, excerpt and absolute address in `lang`; null when it is gone. */
  describe(
    db: Db,
    id: string,
    lang: "en" | "de",
    baseUrl: string,
  ): Promise<{ title: string; excerpt: string; url: string } | null>;
  /** Items out now that were never announced (at most `limit`). */
  unannounced(db: Db, now: Date, limit: number): Promise<string[]>;
};

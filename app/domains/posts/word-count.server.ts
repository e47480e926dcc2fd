import { hash } from "node:crypto";
import { LRUCache } from "lru-cache";

/*
 * A post's words, for its reading time. Every list of posts (/blog, /home, a tag, the feeds) shows the reading time
 * of each post, and counting means running four expressions over the whole body: about 50 µs for a post of 600
 * words, 9 % of an uncached /blog in a CPU profile (scripts/measure-cpu-profile.ts). The count depends on the text
 * alone, so it is kept by a digest of the text (3 µs): an edited body has another digest and is counted afresh,
 * and no edit, restore or migration can leave a stale count behind.
 */

/** Counts kept: a site's posts, many times over; each entry is a digest and a number (about 100 bytes). */
export const WORD_COUNTS_KEPT = 2000;

const counted = new LRUCache<string, number>({ max: WORD_COUNTS_KEPT });

/** Words of a Markdown text as read: link targets, image addresses, HTML tags and markup left out. */
export function countWords(markdown: string): number {
  if (markdown === "") return 0;
  const key = hash("sha1", markdown, "base64");
  const known = counted.get(key);
  if (known !== undefined) return known;
  const words = countWordsAfresh(markdown);
  counted.set(key, words);
  return words;
}

/** How many counts are kept now (the tests hold the bound). */
export function wordCountsKept(): number {
  return counted.size;
}

function countWordsAfresh(markdown: string): number {
  const text = markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, " $1 ")
    .replace(/\]\([^)]*\)/g, "] ")
    .replace(/<[^>]+>/g, " ")
    .replace(/[#*_`>|[\]~-]+/g, " ");
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

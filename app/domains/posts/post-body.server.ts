import type { Language } from "#app/i18n/i18n.ts";
import { renderMarkdown } from "#app/lib/markdown.server.ts";

/**
 * PLACEHOLDER until helper B's renderer (branch blog-seo: Shiki highlighting, heading anchors, picture
 * references) is merged; B's version of this file wins. Same signature: the safe Markdown renderer, headings
 * h2/h3 given ids for the table of contents, and the words counted.
 */
export type PostBody = { html: string; toc: { id: string; text: string; level: 2 | 3 }[]; words: number };

function plainText(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

export async function renderPostBody(markdown: string, _lang: Language): Promise<PostBody> {
  const toc: PostBody["toc"] = [];
  const used = new Set<string>();
  const html = renderMarkdown(markdown).replace(/<h([23])>([\s\S]*?)<\/h\1>/g, (_all, level: string, inner: string) => {
    const text = plainText(inner).trim();
    const base =
      text
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "") || "section";
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    toc.push({ id, text, level: level === "2" ? 2 : 3 });
    return `<h${level} id="${id}">${inner}</h${level}>`;
  });
  const words = plainText(html)
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return { html, toc, words };
}

import { LRUCache } from "lru-cache";
import MarkdownIt, { type MarkdownItOptions } from "markdown-it";

const SAFE_LINK = /^(https?:|mailto:)/i;
const SAME_SITE_PATH = /^(\/(?!\/)|#)/;

/**
 * A Markdown renderer with the site's safety rules: raw HTML in the source is shown as text, links only
 * http(s), mailto or same-site paths, images only from this site. The blog's body renderer
 * (`app/domains/posts/post-body.server.ts`) builds on the same rules and adds its own on top.
 */
export function createSafeMarkdown(options: MarkdownItOptions = {}) {
  const markdown = new MarkdownIt({
    ...options,
    // Raw HTML in the source is shown as text, never rendered.
    html: false,
    linkify: true,
    typographer: true,
  });

  markdown.validateLink = (url: string) => isSafeLink(url);

  const defaultImage = markdown.renderer.rules.image;
  markdown.renderer.rules.image = (tokens, idx, options, env, self) => {
    // Images from other hosts would make the visitor's browser contact a third party.
    const src = String(tokens[idx]?.attrGet("src") ?? "");
    if (!SAME_SITE_PATH.test(src)) return markdown.utils.escapeHtml(tokens[idx]?.content ?? "");
    return defaultImage ? defaultImage(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };

  markdown.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
    const token = tokens[idx];
    const href = String(token?.attrGet("href") ?? "");
    if (token && /^https?:/i.test(href)) {
      token.attrSet("rel", "noopener noreferrer");
    }
    return self.renderToken(tokens, idx, options);
  };
  return markdown;
}

/** Whether a link or image address passes the safe renderer: http(s), mailto, or a path on this site. */
export function isSafeLink(url: string): boolean {
  const trimmed = url.trim();
  return SAFE_LINK.test(trimmed) || SAME_SITE_PATH.test(trimmed);
}

/** What `createSafeMarkdown` makes. */
export type SafeMarkdown = ReturnType<typeof createSafeMarkdown>;

const markdown = createSafeMarkdown();

/** Rendered documents kept: the settings' texts (footer, home, legal pages) in two languages, with room to spare. */
const RENDERED_CACHE_SIZE = 64;
/** Longer sources are rendered every time rather than kept. */
const RENDERED_CACHE_MAX_SOURCE = 64 * 1024;
const rendered = new LRUCache<string, string>({ max: RENDERED_CACHE_SIZE });

/**
 * Markdown to HTML that is safe to insert: no raw HTML, links only http(s), mailto or same-site paths.
 * Every page renders the same few settings texts, so the HTML is kept by source (least recently used dropped).
 */
export function renderMarkdown(source: string): string {
  const cached = rendered.get(source);
  if (cached !== undefined) return cached;
  const html = markdown.render(source);
  if (source.length <= RENDERED_CACHE_MAX_SOURCE) rendered.set(source, html);
  return html;
}

/**
 * Markdown as the plain text a reader sees (emphasis marks, link addresses and code fences gone; blocks and line
 * breaks as single spaces): for what is never rendered, such as a share card's description or structured data.
 */
export function markdownToText(source: string): string {
  const cached = texts.get(source);
  if (cached !== undefined) return cached;
  const text = textOf(source);
  if (source.length <= TEXT_CACHE_MAX_SOURCE) texts.set(source, text);
  return text;
}

/**
 * The texts made lately, by source: a gallery page reads 24 pictures' descriptions as text on every render, and a
 * search its hits' (2 % of an uncached gallery page, profiled), the same few hundred from one request to the next.
 */
const texts = new LRUCache<string, string>({ max: 2000 });
/** Descriptions and excerpts, not post bodies (the search index reads every body once): at most 8 MB kept. */
const TEXT_CACHE_MAX_SOURCE = 2048;

function textOf(source: string): string {
  const parts: string[] = [];
  for (const token of markdown.parse(source, {})) {
    if (token.type !== "inline") {
      // A code block's text, then every block ends with a space.
      if (token.type === "code_block" || token.type === "fence") parts.push(token.content);
      if (token.block) parts.push(" ");
      continue;
    }
    for (const child of token.children ?? []) {
      if (child.type === "text" || child.type === "code_inline") parts.push(child.content);
      else if (child.type === "image") parts.push(child.content);
      else if (child.type === "softbreak" || child.type === "hardbreak") parts.push(" ");
    }
  }
  return parts.join("").replace(/\s+/g, " ").trim();
}

import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import type { Token } from "markdown-it";
import type { Highlighter } from "shiki";
import type { Database } from "#app/db/schema.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import { imageSources } from "#app/domains/media/image-display.ts";
import { createSafeMarkdown, type SafeMarkdown } from "#app/lib/markdown.server.ts";
import { spellOut } from "./post-schema.ts";

/**
 * A post's Markdown body as HTML, on the server only (no highlighter reaches the browser).
 *
 * On top of the site's safe renderer (`createSafeMarkdown`: no raw HTML, safe link addresses, images only from
 * this site) it adds:
 * - **Pictures from the editor**: `![alt text](image:<images.id>)`. The reference names a row of `images`
 *   (made by the ordinary pipeline, `storeImage`) and becomes a responsive `<picture>` with its width and
 *   height, so the page does not shift while it loads. An id that names no image renders nothing.
 * - **Code blocks** highlighted by Shiki in both themes at once (`github-light-default` / `github-dark-default`:
 *   every token colour meets WCAG AA on its background), both as CSS variables that `app/app.css` applies
 *   by the page's theme. A fence's language outside `LANGUAGES` is shown as plain text.
 * - **Headings** h2/h3 get an id made from their text (unique within the post, never one the page's own
 *   layout uses) and a link to themselves beside them (in `<div class="post-heading">`); they make the table
 *   of contents.
 * - **Words**: prose and inline code, not fenced code (they measure reading time).
 */
export type PostBody = {
  html: string;
  toc: TocEntry[];
  words: number;
};

export type TocEntry = { id: string; text: string; level: 2 | 3 };

export type PostLanguage = "en" | "de";

/** The languages highlighted; anything else in a fence's info string is plain text. */
const LANGUAGES = [
  "bash",
  "c",
  "cpp",
  "css",
  "diff",
  "dockerfile",
  "go",
  "html",
  "java",
  "javascript",
  "json",
  "jsx",
  "markdown",
  "php",
  "python",
  "ruby",
  "rust",
  "sql",
  "toml",
  "tsx",
  "typescript",
  "xml",
  "yaml",
] as const;

/** Short names writers use, for the languages above. */
const ALIASES: Record<string, (typeof LANGUAGES)[number]> = {
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  ts: "typescript",
  mts: "typescript",
  sh: "bash",
  shell: "bash",
  zsh: "bash",
  console: "bash",
  py: "python",
  rb: "ruby",
  rs: "rust",
  yml: "yaml",
  md: "markdown",
  htm: "html",
  svg: "xml",
  "c++": "cpp",
  golang: "go",
  docker: "dockerfile",
  patch: "diff",
};

export const CODE_THEMES = { light: "github-light-default", dark: "github-dark-default" } as const;

let highlighter: Promise<Highlighter> | undefined;

/**
 * Made once, with the two themes and no grammar: each language's grammar is loaded when a body first needs it
 * (`loadLanguagesOf`). All 23 loaded and compiled took about 150 MB of the process's memory (measured with
 * `process.memoryUsage`: 109 → 265 MB), most sites' posts use two or three of them, and many none.
 */
function loadHighlighter(): Promise<Highlighter> {
  // Imported here: a site whose posts have no code keeps the highlighter's modules out of its memory. The
  // JavaScript engine needs no WebAssembly file beside the server build.
  const themes = [CODE_THEMES.light, CODE_THEMES.dark];
  highlighter ??= import("shiki")
    .then((shiki) => shiki.createHighlighter({ themes, langs: [], engine: shiki.createJavaScriptRegexEngine() }))
    .catch((error: unknown) => {
      highlighter = undefined;
      throw error;
    });
  return highlighter;
}

/** The grammars this process has loaded so far (the tests of the on-demand loading read them). */
export async function loadedCodeLanguages(): Promise<string[]> {
  if (!highlighter) return [];
  const loaded = new Set((await highlighter).getLoadedLanguages());
  return LANGUAGES.filter((language) => loaded.has(language));
}

/** The highlighted languages a body's code blocks name (fences; an unknown or missing name is plain text). */
function codeLanguagesOf(tokens: Token[]): Set<(typeof LANGUAGES)[number]> {
  const languages = new Set<(typeof LANGUAGES)[number]>();
  for (const token of tokens) {
    if (token.type !== "fence") continue;
    const language = codeLanguage(token.info);
    if (language !== "text") languages.add(language);
  }
  return languages;
}

/** Loads the grammars of these languages that are not loaded yet (a grammar is loaded once per process). */
async function loadLanguagesOf(code: Highlighter, languages: Iterable<(typeof LANGUAGES)[number]>): Promise<void> {
  const loaded = new Set(code.getLoadedLanguages());
  const missing = [...languages].filter((language) => !loaded.has(language));
  if (missing.length > 0) await code.loadLanguage(...missing);
}

/**
 * Loads the grammars the site's posts use and compiles each once, in the background, one language per turn of
 * the event loop: the first visitor of a post with code after a restart would otherwise wait for them (about
 * 2.5 s for all 23 on an idle machine, most of it C++'s grammar). A site without code in its posts pays nothing.
 */
export async function warmPostRenderer(db: Kysely<Database>): Promise<void> {
  const fenced = await db
    .selectFrom("posts")
    .select(["body", "body_de"])
    .where((eb) =>
      eb.or([
        eb("body", "like", "%```%"),
        eb("body", "like", "%~~~%"),
        eb("body_de", "like", "%```%"),
        eb("body_de", "like", "%~~~%"),
      ]),
    )
    .execute();
  if (fenced.length === 0) return;
  const markdown = createSafeMarkdown();
  const languages = new Set<(typeof LANGUAGES)[number]>();
  for (const post of fenced) {
    for (const body of [post.body, post.body_de])
      for (const language of codeLanguagesOf(markdown.parse(body, {}))) languages.add(language);
  }
  if (languages.size === 0) return;
  const code = await loadHighlighter();
  for (const lang of languages) {
    await new Promise((resolve) => setImmediate(resolve));
    await loadLanguagesOf(code, [lang]);
    code.codeToHtml("x", { lang, themes: CODE_THEMES, defaultColor: false });
  }
}

function codeLanguage(info: string): (typeof LANGUAGES)[number] | "text" {
  const name = info.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  const known = LANGUAGES.find((language) => language === name);
  return known ?? ALIASES[name] ?? "text";
}

/** Ids the page around the body uses itself (the skip link's target). */
const RESERVED_IDS = ["main"];

/** A heading's text as an id: lower case, German letters spelled out, accents dropped, words joined by '-'. */
export function slugifyHeading(text: string): string {
  const slug = spellOut(text)
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug === "" ? "section" : slug;
}

const ANCHOR_LABEL: Record<PostLanguage, string> = {
  en: "Link to this section",
  de: "Link zu diesem Abschnitt",
};

type RenderEnv = { lang: PostLanguage; toc: TocEntry[] };

/** Where a picture from the editor goes; HTML comments cannot come from the source (raw HTML is escaped). */
const IMAGE_MARKER = /<!--post-image:([A-Za-z0-9_-]{1,100}):([^>]*?)-->/g;
const IMAGE_REFERENCE = /^image:([A-Za-z0-9_-]{1,100})$/;

function inlineText(token: Token | undefined): string {
  return (token?.children ?? [])
    .filter((child) => child.type === "text" || child.type === "code_inline" || child.type === "image")
    .map((child) => child.content)
    .join("")
    .trim();
}

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

function countWords(tokens: Token[]): number {
  let words = 0;
  for (const token of tokens) {
    if (token.type !== "inline") continue;
    for (const child of token.children ?? []) {
      if (child.type === "text" || child.type === "code_inline") words += child.content.match(WORD)?.length ?? 0;
    }
  }
  return words;
}

function createPostMarkdown(code: Highlighter): SafeMarkdown {
  const markdown = createSafeMarkdown({
    highlight: (source, info) =>
      // Shiki escapes the code; a <pre> answer is used as it is. tabindex lets a keyboard scroll a wide block.
      code.codeToHtml(source.replace(/\n$/, ""), {
        lang: codeLanguage(info),
        themes: CODE_THEMES,
        // Both themes as CSS variables; app/app.css picks one by the page's theme.
        defaultColor: false,
        // A pathological line is shown plain instead of holding the server.
        tokenizeMaxLineLength: 2000,
        tokenizeTimeLimit: 500,
      }),
  });

  const safeValidate = markdown.validateLink;
  markdown.validateLink = (url) => IMAGE_REFERENCE.test(url.trim()) || safeValidate(url);

  const safeImage = markdown.renderer.rules.image;
  markdown.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const reference = IMAGE_REFERENCE.exec(String(token?.attrGet("src") ?? "").trim());
    if (token && reference) {
      // Resolved per request (`resolveImages`), so a redrawn or deleted picture shows as it is now.
      const alt = encodeURIComponent(self.renderInlineAsText(token.children ?? [], options, env));
      return `<!--post-image:${reference[1]}:${alt}-->`;
    }
    return safeImage ? safeImage(tokens, idx, options, env, self) : "";
  };

  const safeLinkOpen = markdown.renderer.rules.link_open;
  markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    // `image:` is an address for pictures only; as a link it leads nowhere.
    if (token && IMAGE_REFERENCE.test(String(token.attrGet("href") ?? "").trim())) token.attrs = null;
    return safeLinkOpen ? safeLinkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };

  // Ids for h2/h3, unique within the post, and the table of contents from them.
  markdown.core.ruler.push("post_heading_ids", (state) => {
    const env = state.env as RenderEnv;
    const used = new Set(RESERVED_IDS);
    state.tokens.forEach((token, index) => {
      if (token.type !== "heading_open" || (token.tag !== "h2" && token.tag !== "h3")) return;
      const text = inlineText(state.tokens[index + 1]);
      const base = slugifyHeading(text);
      let id = base;
      for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
      used.add(id);
      token.attrSet("id", id);
      token.meta = { anchorId: id, anchorText: text };
      env.toc.push({ id, text, level: token.tag === "h2" ? 2 : 3 });
    });
  });

  // The heading and its link side by side in a wrapper: the link stays out of the heading, so the heading's
  // accessible name (and the table of contents' entry) is its text alone.
  markdown.renderer.rules.heading_open = (tokens, idx, options, _env, self) => {
    const anchored = Boolean((tokens[idx]?.meta as { anchorId?: string } | null)?.anchorId);
    return `${anchored ? '<div class="post-heading">' : ""}${self.renderToken(tokens, idx, options)}`;
  };
  markdown.renderer.rules.heading_close = (tokens, idx, options, env, self) => {
    const open = tokens[idx - 2];
    const meta = open?.meta as { anchorId?: string; anchorText?: string } | null;
    const id = meta?.anchorId;
    if (!id) return self.renderToken(tokens, idx, options);
    // Named with the heading, so the links of different sections do not share one name.
    const label = markdown.utils.escapeHtml(`${ANCHOR_LABEL[(env as RenderEnv).lang]}: ${meta.anchorText ?? ""}`);
    // Its visible '#' is decoration; its name says what it does.
    return `${self.renderToken(tokens, idx, options).trimEnd()}<a class="heading-anchor" href="#${id}" aria-label="${label}"><span aria-hidden="true">#</span></a></div>\n`;
  };

  return markdown;
}

let postMarkdown: SafeMarkdown | undefined;

/** Rendered bodies kept, by language and text, up to about this many characters of HTML in all. */
const RENDERED_CACHE_CHARS = 16 * 1024 * 1024;
const rendered = new LRUCache<string, PostBody>({
  maxSize: RENDERED_CACHE_CHARS,
  sizeCalculation: (body) => Math.max(1, body.html.length),
});

type ImageRow = { id: string; width: number; height: number; placeholder: string; variants: string; watermark: string };

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The body's widest column (max-w-3xl) on wide screens, the viewport's width on small ones. */
const PICTURE_SIZES = "(min-width: 48rem) 48rem, 100vw";

/** One picture as `<picture>`, like the ResponsiveImage component renders a stored image. */
export function renderPicture(row: ImageRow, alt: string): string {
  const image = imageForDisplay(row);
  if (image.variants.length === 0) return "";
  // With a watermark drawn into its large sizes, only those are offered (as in the lightbox), so the watermark is
  // always seen and no clean large copy is served; without one, every width.
  const { sources, fallback } = imageSources(image, row.watermark === "" ? "all" : "full");
  if (!fallback.src) return "";
  const sizes = escapeAttribute(PICTURE_SIZES);
  const source = (type: string, srcset: string) =>
    srcset ? `<source type="${type}" srcset="${escapeAttribute(srcset)}" sizes="${sizes}">` : "";
  return (
    `<picture>${source("image/avif", sources.avif)}${source("image/webp", sources.webp)}` +
    `<img src="${escapeAttribute(fallback.src)}" srcset="${escapeAttribute(fallback.srcset)}" sizes="${sizes}"` +
    ` width="${image.width}" height="${image.height}" alt="${escapeAttribute(alt)}" loading="lazy" decoding="async"` +
    ` class="post-picture" style="background-image:url(&quot;${escapeAttribute(image.placeholder)}&quot;)"></picture>`
  );
}

async function resolveImages(html: string, db: Kysely<Database>): Promise<string> {
  const ids = [...new Set([...html.matchAll(IMAGE_MARKER)].map((match) => match[1] as string))];
  if (ids.length === 0) return html;
  const rows = await db
    .selectFrom("images")
    .select(["id", "width", "height", "placeholder", "variants", "watermark"])
    .where("id", "in", ids)
    // A restricted gallery picture's image or video's poster (its files in a member folder) is not shown through
    // a post, whoever reads it: the post's readers are not the item's (issue 21). A post's own picture in a member
    // folder is there because only restricted posts show it (post-image-places.server.ts): theirs to show.
    .where((eb) =>
      eb.or([
        eb("private_folder", "is", null),
        eb.and([
          eb.not(
            eb.exists(eb.selectFrom("gallery_images as g").select("g.id").whereRef("g.image_id", "=", "images.id")),
          ),
          eb.not(
            eb.exists(eb.selectFrom("videos as v").select("v.id").whereRef("v.poster_image_id", "=", "images.id")),
          ),
        ]),
      ]),
    )
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return html.replace(IMAGE_MARKER, (_marker, id: string, alt: string) => {
    const row = byId.get(id);
    if (!row) return "";
    let text = "";
    try {
      text = decodeURIComponent(alt);
    } catch {
      text = "";
    }
    return renderPicture(row, text);
  });
}

/**
 * Renders a post's body (see the top of this file for what it adds to the safe renderer). The Markdown part
 * (highlighting is the slow bit) is kept by language and text; the pictures are looked up on every call, one
 * query, so a changed or deleted picture shows as it is now.
 */
export async function renderPostBody(
  markdown: string,
  lang: PostLanguage,
  options: { db?: Kysely<Database> } = {},
): Promise<PostBody> {
  const key = `${lang}\u0000${markdown}`;
  let body = rendered.get(key);
  if (!body) {
    const code = await loadHighlighter();
    postMarkdown ??= createPostMarkdown(code);
    const env: RenderEnv = { lang, toc: [] };
    const tokens = postMarkdown.parse(markdown, env);
    await loadLanguagesOf(code, codeLanguagesOf(tokens));
    body = {
      html: postMarkdown.renderer.render(tokens, postMarkdown.options, env),
      toc: env.toc,
      words: countWords(tokens),
    };
    rendered.set(key, body);
  }
  if (!body.html.includes("<!--post-image:")) return body;
  // Every page passes its database; only a body without pictures can be rendered without one (the unit tests).
  if (!options.db) throw new Error("renderPostBody needs the database to resolve the post's pictures");
  return { ...body, html: await resolveImages(body.html, options.db) };
}

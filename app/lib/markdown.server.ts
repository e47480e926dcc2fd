import MarkdownIt from "markdown-it";

const SAFE_LINK = /^(https?:|mailto:)/i;
const SAME_SITE_PATH = /^(\/(?!\/)|#)/;

const markdown = new MarkdownIt({
  // Raw HTML in the source is shown as text, never rendered.
  html: false,
  linkify: true,
  typographer: true,
});

markdown.validateLink = (url: string) => {
  const trimmed = url.trim();
  return SAFE_LINK.test(trimmed) || SAME_SITE_PATH.test(trimmed);
};

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

/** Markdown to HTML that is safe to insert: no raw HTML, links only http(s), mailto or same-site paths. */
export function renderMarkdown(source: string): string {
  return markdown.render(source);
}

import MarkdownIt from "markdown-it";
import { describe, expect, it, vi } from "vitest";
import { markdownToText, renderMarkdown } from "./markdown.server.ts";

/** The elements of a tag name the rendered HTML really contains (escaped text does not count). */
const elements = (html: string, tag: string) => html.match(new RegExp(`<${tag}\\b[^>]*>`, "gi")) ?? [];

describe("Markdown rendering", () => {
  it("renders ordinary Markdown", () => {
    const html = renderMarkdown("## Hello\n\nSome **bold** text\n\n- one\n- two");
    expect(html).toContain("<h2>Hello</h2>");
    expect(html).toContain("<strong>bold</strong>");
    expect(elements(html, "li")).toHaveLength(2);
  });

  it("shows a raw <script> as text instead of running it", () => {
    const html = renderMarkdown('Hi <script>alert("x")</script>\n\n<script src="https://evil.example/x.js"></script>');
    expect(elements(html, "script")).toEqual([]);
    expect(html).toContain("&lt;script&gt;");
  });

  it("shows raw HTML with event handlers as text", () => {
    const html = renderMarkdown('<img src="x" onerror="alert(1)">\n\n<div onclick="alert(2)">click</div>');
    expect(elements(html, "img")).toEqual([]);
    expect(elements(html, "div")).toEqual([]);
    expect(html).toContain("&lt;img");
    expect(html).not.toMatch(/<[^>]+\sonerror=/i);
  });

  it.each([
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
  ])("does not make a link of %j", (url) => {
    const html = renderMarkdown(`[click me](${url})`);
    expect(elements(html, "a")).toEqual([]);
    expect(html).not.toMatch(/href=/i);
    expect(html).toContain("click me");
  });

  it("does not turn a bare javascript: text into a link", () => {
    const html = renderMarkdown("javascript:alert(1) and <javascript:alert(1)>");
    expect(elements(html, "a")).toEqual([]);
  });

  it("keeps http(s) links, opened without handing over the page", () => {
    const html = renderMarkdown("[site](https://example.com/a) and [old](http://example.org)");
    const links = elements(html, "a");
    expect(links).toHaveLength(2);
    expect(links[0]).toContain('href="https://example.com/a"');
    expect(links[1]).toContain('href="http://example.org"');
    for (const link of links) expect(link).toContain('rel="noopener noreferrer"');
  });

  it("keeps mailto links and same-site paths", () => {
    const html = renderMarkdown("[write](mailto:jo@example.com) or see [privacy](/privacy)");
    const links = elements(html, "a");
    expect(links).toHaveLength(2);
    expect(links[0]).toContain('href="mailto:jo@example.com"');
    expect(links[1]).toContain('href="/privacy"');
  });

  it("turns a bare web address into a safe link", () => {
    const links = elements(renderMarkdown("Visit https://example.com today"), "a");
    expect(links).toHaveLength(1);
    expect(links[0]).toContain('href="https://example.com"');
    expect(links[0]).toContain('rel="noopener noreferrer"');
  });

  it("does not load images from other hosts, and shows their description instead", () => {
    const html = renderMarkdown("![A tracking pixel](https://tracker.example/p.gif)");
    expect(elements(html, "img")).toEqual([]);
    expect(html).toContain("A tracking pixel");
    expect(html).not.toContain("tracker.example");
  });

  it("does not load protocol-relative images either", () => {
    expect(elements(renderMarkdown("![x](//tracker.example/p.gif)"), "img")).toEqual([]);
  });

  it("shows images from this site", () => {
    const images = elements(renderMarkdown("![Our logo](/uploads/logo.png)"), "img");
    expect(images).toHaveLength(1);
    expect(images[0]).toContain('src="/uploads/logo.png"');
    expect(images[0]).toContain('alt="Our logo"');
  });

  it("keeps a quote in a link title from opening a new attribute", () => {
    const html = renderMarkdown('[x](https://example.com "a\\" onmouseover=\\"alert(1)")');
    expect(html).toContain('title="a&quot; onmouseover=&quot;alert(1)"');
    expect(html).not.toMatch(/"\s*onmouseover=/i);
  });
});

describe("rendered Markdown kept by source", () => {
  it("renders a text once, however often pages ask, and a changed text afresh", () => {
    const render = vi.spyOn(MarkdownIt.prototype, "render");
    try {
      const source = `## Imprint ${Math.random()}\n\nSome **owner**`;
      const html = renderMarkdown(source);
      expect(renderMarkdown(source)).toBe(html);
      expect(render).toHaveBeenCalledTimes(1);
      expect(renderMarkdown(`${source}!`)).toContain("<strong>owner</strong>!");
      expect(render).toHaveBeenCalledTimes(2);
    } finally {
      render.mockRestore();
    }
  });

  it("keeps a bounded number of texts: the oldest is rendered again", () => {
    const render = vi.spyOn(MarkdownIt.prototype, "render");
    try {
      const texts = Array.from({ length: 80 }, (_, index) => `text ${index} ${Math.random()}`);
      for (const text of texts) renderMarkdown(text);
      expect(render).toHaveBeenCalledTimes(80);
      renderMarkdown(texts[79] ?? "");
      expect(render).toHaveBeenCalledTimes(80);
      renderMarkdown(texts[0] ?? "");
      expect(render).toHaveBeenCalledTimes(81);
    } finally {
      render.mockRestore();
    }
  });
});

describe("Markdown as plain text", () => {
  it.each([
    ["Shot in **morning** light.", "Shot in morning light."],
    ["*Soft* `code` and [a link](https://example.com/x) here", "Soft code and a link here"],
    ["Line one\nline two\n\nA new paragraph", "Line one line two A new paragraph"],
    ["- first\n- second", "first second"],
    ["## Heading\n\n![a lake](/media/x.jpg)", "Heading a lake"],
    ["<b>raw</b> & more", "<b>raw</b> & more"],
    ["", ""],
  ])("%j → %j", (source, text) => {
    expect(markdownToText(source)).toBe(text);
  });
});

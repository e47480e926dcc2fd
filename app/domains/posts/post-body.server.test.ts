import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { CODE_THEMES, renderPostBody, slugifyHeading } from "./post-body.server.ts";

/** The elements of a tag name the rendered HTML really contains (escaped text does not count). */
const elements = (html: string, tag: string) => html.match(new RegExp(`<${tag}\\b[^>]*>`, "gi")) ?? [];

/** Relative luminance and contrast ratio (WCAG 2). */
function luminance(hex: string): number {
  const value = hex.replace("#", "").slice(0, 6);
  const [r, g, b] = [0, 2, 4].map((at) => {
    const channel = Number.parseInt(value.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** A long post: sections with headings, paragraphs, lists and code, `words` words of prose in all. */
function longPost(words: number): string {
  const sentence = "The quick brown fox jumps over the lazy dog while writing TypeScript on a server";
  const perSentence = sentence.split(" ").length;
  const parts: string[] = [];
  let written = 0;
  let section = 0;
  while (written < words) {
    section++;
    parts.push(`## Section ${section}`);
    written += 2;
    for (let paragraph = 0; paragraph < 4 && written < words; paragraph++) {
      const count = Math.min(5, Math.ceil((words - written) / perSentence));
      parts.push(Array.from({ length: count }, () => `${sentence}.`).join(" "));
      written += count * perSentence;
    }
    parts.push("```ts\nexport function add(a: number, b: number): number {\n  return a + b; // sum\n}\n```");
  }
  return parts.join("\n\n");
}

describe("post bodies: Markdown, highlighting, headings", () => {
  it("keeps raw HTML, scripts and unsafe addresses inert, in prose, code and headings alike", async () => {
    const source = [
      'Hi <script>alert("x")</script> and <img src=x onerror="alert(1)">',
      '## <script>alert("h")</script> Title',
      "```html\n</code></pre><script>alert('code')</script>\n```",
      "```\"><script>alert('info')</script>\n<b>plain</b>\n```",
      "[click](javascript:alert(1)) ![remote](https://tracker.example/p.png) [pic](image:abc)",
      "<!--post-image:x:y--> and `<!--post-image:abc:def-->`",
    ].join("\n\n");
    const { html } = await renderPostBody(source, "en");
    expect(elements(html, "script")).toEqual([]);
    expect(elements(html, "img")).toEqual([]);
    expect(elements(html, "b")).toEqual([]);
    expect(html).not.toMatch(/<[^>]+\son\w+=/i);
    expect(html).not.toMatch(/href="(javascript|image):/i);
    expect(html).not.toContain('tracker.example/p.png"');
    // A marker typed into the text is shown as text, never resolved.
    expect(html).not.toContain("<!--");
    expect(html).toContain("&lt;script&gt;");
  });

  it("highlights known languages on the server in both themes, with readable colours, and shows others plainly", async () => {
    const { html } = await renderPostBody(
      "```typescript\nconst answer: number = 42; // why\n```\n\n```nosuchlanguage\nlet x = 1\n```",
      "en",
    );
    const blocks = html.match(/<pre[\s\S]*?<\/pre>/g) ?? [];
    expect(blocks).toHaveLength(2);
    const [typescript = "", plain = ""] = blocks;
    expect(typescript).toContain("shiki");
    // Coloured tokens, each with its dark-theme colour as a variable.
    expect(
      typescript.match(/<span style="--shiki-light:#[0-9A-Fa-f]{6};--shiki-dark:#[0-9A-Fa-f]{6}"/g)?.length,
    ).toBeGreaterThan(3);
    // No empty last line from the fence's closing newline.
    expect(typescript).not.toContain('<span class="line"></span>');
    expect(typescript).toContain('tabindex="0"');
    expect(plain).toContain("let x = 1");
    // Plain text: the block has the theme colours, its text no token colours.
    expect(plain).not.toContain("<span style=");
    // Every token colour meets WCAG AA (4.5:1) on its theme's background.
    const light = /--shiki-light-bg:(#[0-9a-fA-F]{6})/.exec(typescript)?.[1] ?? "";
    const dark = /--shiki-dark-bg:(#[0-9a-fA-F]{6})/.exec(typescript)?.[1] ?? "";
    expect(light).not.toBe("");
    expect(dark).not.toBe("");
    for (const [, color = ""] of typescript.matchAll(/--shiki-light:(#[0-9a-fA-F]{6})/g)) {
      expect(contrast(color, light), `${color} on ${light} (${CODE_THEMES.light})`).toBeGreaterThanOrEqual(4.5);
    }
    for (const [, color = ""] of typescript.matchAll(/--shiki-dark:(#[0-9a-fA-F]{6})/g)) {
      expect(contrast(color, dark), `${color} on ${dark} (${CODE_THEMES.dark})`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("gives h2/h3 unique ids, an anchor link named in the reader's language, and a table of contents", async () => {
    const source = "## Über uns\n\n### Setup\n\n## Setup\n\n## Setup\n\n## Main\n\n#### Deep\n\n## !!!";
    const { html, toc } = await renderPostBody(source, "de");
    expect(toc).toEqual([
      { id: "ueber-uns", text: "Über uns", level: 2 },
      { id: "setup", text: "Setup", level: 3 },
      { id: "setup-2", text: "Setup", level: 2 },
      { id: "setup-3", text: "Setup", level: 2 },
      // The page's own main element is #main.
      { id: "main-2", text: "Main", level: 2 },
      { id: "section", text: "!!!", level: 2 },
    ]);
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(html).toContain(
      '<div class="post-heading"><h2 id="ueber-uns">Über uns</h2><a class="heading-anchor" href="#ueber-uns"',
    );
    expect(html).toContain('aria-label="Link zu diesem Abschnitt: Über uns"');
    expect(html).toContain("<h4>Deep</h4>");
    const english = await renderPostBody(source, "en");
    expect(english.html).toContain('aria-label="Link to this section: Über uns"');
  });

  it("makes ids from text alone", () => {
    expect(slugifyHeading("Straße & Café: 2026!")).toBe("strasse-cafe-2026");
    expect(slugifyHeading("  ")).toBe("section");
  });

  it("counts words of prose, not of fenced code", async () => {
    const { words } = await renderPostBody(
      "# One two\n\nThree *four* five's `six`.\n\n```js\nnot counted at all\n```",
      "en",
    );
    expect(words).toBe(6);
  });

  const fiveThousand = longPost(5000);
  // Rendered once before the timing: the highlighter's grammars load on the first use only.
  let firstMs = 0;
  let coldMs = 0;
  it("renders a 5,000-word post", async () => {
    const started = performance.now();
    await renderPostBody("```ts\nconst warm = 1;\n```", "en");
    firstMs = performance.now() - started;
    const again = performance.now();
    const { html, words, toc } = await renderPostBody(fiveThousand, "en");
    coldMs = performance.now() - again;
    expect(words).toBeGreaterThanOrEqual(5000);
    expect(words).toBeLessThan(5100);
    expect(toc.length).toBeGreaterThan(10);
    expect(elements(html, "pre").length).toBe(toc.length);
    const cachedStart = performance.now();
    const cached = await renderPostBody(fiveThousand, "en");
    const cachedMs = performance.now() - cachedStart;
    expect(cached.html).toBe(html);
    console.info(
      `post-body: highlighter start ${firstMs.toFixed(0)} ms; 5,000-word post ${coldMs.toFixed(0)} ms rendered, ${cachedMs.toFixed(2)} ms kept`,
    );
    // Generous on a shared machine; the measure script gives the real figure.
    expect(coldMs).toBeLessThan(5000);
  });
});

describe.each(databaseKinds)("post bodies: pictures from the editor (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");

  const variants = (id: string, widths: number[]) =>
    JSON.stringify(
      widths.flatMap((width) =>
        (["avif", "webp", "jpg"] as const).map((extension, format) => ({
          width,
          height: width / 2,
          format: extension,
          key: `public/images/${id}/${width}-${width.toString(16)}0${format}.${extension}`,
        })),
      ),
    );

  async function insertImage(id: string, watermark = "") {
    await database.db
      .insertInto("images")
      .values({
        id,
        original_key: `private/originals/${id}.jpg`,
        original_format: "jpeg",
        width: 1600,
        height: 800,
        placeholder: "data:image/webp;base64,AAAA",
        variants: variants(id, [320, 640, 1280, 1600]),
        watermark,
        ready: kind === "sqlite" ? 1 : true,
        created_at: new Date().toISOString(),
      })
      .execute();
  }

  it("resolves image:<id> to a responsive picture with its size; an unknown id renders nothing", async () => {
    await insertImage("img-plain");
    await insertImage("img-marked", "© Jo");
    const source =
      'Before ![A "harbour" <at> dusk](image:img-plain) after.\n\n![marked](image:img-marked)\n\n![gone](image:no-such-image)';
    const { html } = await renderPostBody(source, "en", { db: database.db });
    const pictures = html.match(/<picture>[\s\S]*?<\/picture>/g) ?? [];
    expect(pictures).toHaveLength(2);
    const [plain = "", marked = ""] = pictures;
    expect(plain).toContain('type="image/avif"');
    expect(plain).toContain('type="image/webp"');
    expect(plain).toContain('width="1600" height="800"');
    expect(plain).toContain('alt="A &quot;harbour&quot; &lt;at&gt; dusk"');
    expect(plain).toContain("/media/images/img-plain/320-");
    expect(plain).toContain('loading="lazy"');
    // With a watermark only the watermarked sizes are offered, as in the lightbox.
    expect(marked).not.toContain("/media/images/img-marked/320-");
    expect(marked).toContain("/media/images/img-marked/1280-");
    expect(html).not.toContain("no-such-image");
    expect(html).not.toContain("gone");
    expect(html).not.toContain("<!--");

    // A deleted picture disappears from the kept rendering too.
    await database.db.deleteFrom("images").where("id", "=", "img-plain").execute();
    const after = await renderPostBody(source, "en", { db: database.db });
    expect(after.html.match(/<picture>/g)).toHaveLength(1);
  });
});

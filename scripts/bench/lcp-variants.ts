/*
 * Variants of a page's HTML for scripts/measure-lcp-variants.ts (issue 23): what Lighthouse's LCP would be if the
 * page loaded its JavaScript differently, measured before anything of it is built into the site. Each variant is a
 * rewrite of the HTML the site sent; the rest of the page (style sheet, pictures, scripts) still comes from the site.
 */

/** The variants, each with what it changes. */
export const LCP_VARIANTS = {
  "as sent": "the page as the site sends it",
  "scripts at low priority":
    "the modulepreload links and the module script fetched at low priority (fetchpriority), still as soon as found",
  "module script at low priority":
    "only the module script fetched at low priority (what <Scripts fetchPriority> renders); the links as sent",
  "scripts after load":
    "no modulepreload links; the module script that starts React Router waits for the window's load event",
  "scripts after load, style sheet inline":
    "as before, and the style sheet's text in a <style> element instead of a render-blocking link",
} as const;
export type LcpVariant = keyof typeof LCP_VARIANTS;

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const MODULE_SCRIPT = /<script([^>]*) type="module" async="">([\s\S]*?)<\/script>/;
const STYLE_SHEET = /<link[^>]*rel="stylesheet"[^>]*>/;

/**
 * The page's HTML as the variant has it. `styleSheet` is the text of the page's style sheet (the inline variant
 * needs it). Throws when the HTML lacks what the variant rewrites: a variant that silently changed nothing would
 * measure the page as sent under another name.
 */
export function rewritePage(html: string, variant: LcpVariant, styleSheet = ""): string {
  if (variant === "as sent") return html;
  if (!html.includes('<link rel="modulepreload"') || !MODULE_SCRIPT.test(html)) {
    throw new Error("The page has no modulepreload link or no module script to defer");
  }
  const lowPriority = (tag: string) => tag.replace(/^<(link|script) /, '<$1 fetchpriority="low" ');
  if (variant === "module script at low priority") return html.replace(MODULE_SCRIPT, lowPriority);
  if (variant === "scripts at low priority") {
    return html.replace(MODULE_PRELOAD, lowPriority).replace(MODULE_SCRIPT, lowPriority);
  }
  // The module script's static imports would start every download at once: each becomes a dynamic import, run
  // once the load event has come (top-level await in a module script).
  let page = html.replace(MODULE_PRELOAD, "").replace(MODULE_SCRIPT, (_match, attributes: string, body: string) => {
    const deferred = body.replace(/import \* as (\w+) from ("[^"]+");/g, "const $1 = await import($2);");
    const waitForLoad =
      'await new Promise((resolve) => document.readyState === "complete" ? resolve() : addEventListener("load", resolve, { once: true }));';
    return `<script${attributes} type="module">${waitForLoad}\n${deferred}</script>`;
  });
  if (variant === "scripts after load, style sheet inline") {
    if (!STYLE_SHEET.test(page)) throw new Error("The page has no style sheet link to inline");
    page = page.replace(STYLE_SHEET, () => `<style>${styleSheet}</style>`);
  }
  return page;
}

/** The address of the page's style sheet (the first one). */
export function styleSheetHref(html: string): string | undefined {
  return html.match(STYLE_SHEET)?.[0].match(/href="([^"]+)"/)?.[1];
}

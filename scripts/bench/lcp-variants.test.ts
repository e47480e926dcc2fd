import { describe, expect, it } from "vitest";
import { rewritePage, styleSheetHref } from "./lcp-variants.ts";

const PAGE = [
  '<html><head><link rel="stylesheet" href="/assets/app-1.css" data-precedence="default"/>',
  '<link rel="modulepreload" href="/assets/entry.client-1.js" nonce="n"/><link rel="modulepreload" href="/assets/framework-1.js" nonce="n"/>',
  '</head><body><main><img src="/a.avif"></main><script nonce="n">window.__reactRouterContext = {};</script>',
  '<script nonce="n" type="module" async="">import "/assets/manifest-1.js";\nimport * as route0 from "/assets/root-1.js";\nimport * as route1 from "/assets/gallery-1.js";\n',
  '  window.__reactRouterRouteModules = {"root":route0,"routes/gallery":route1};\n\nimport("/assets/entry.client-1.js");</script></body></html>',
].join("");

describe("rewritePage", () => {
  it("leaves the page as sent untouched", () => {
    expect(rewritePage(PAGE, "as sent")).toBe(PAGE);
  });

  it("defers the scripts: no modulepreload, the route modules imported once the load event has come", () => {
    const page = rewritePage(PAGE, "scripts after load");
    expect(page).not.toContain("modulepreload");
    expect(page).not.toMatch(/import \* as/);
    expect(page).toContain('<script nonce="n" type="module">await new Promise(');
    expect(page).toContain('addEventListener("load", resolve, { once: true })');
    expect(page).toContain('const route0 = await import("/assets/root-1.js");');
    expect(page).toContain('const route1 = await import("/assets/gallery-1.js");');
    expect(page).toContain('import("/assets/entry.client-1.js");</script>');
    // The style sheet stays a link, the rest of the page as it was.
    expect(page).toContain('<link rel="stylesheet" href="/assets/app-1.css"');
    expect(page).toContain('<main><img src="/a.avif"></main>');
  });

  it("asks for the scripts at low priority, still where they were: the links and the module script, or the script alone", () => {
    const low = rewritePage(PAGE, "scripts at low priority");
    expect(low.match(/<link fetchpriority="low" rel="modulepreload"/g)).toHaveLength(2);
    expect(low).toContain(
      '<script fetchpriority="low" nonce="n" type="module" async="">import "/assets/manifest-1.js";',
    );
    expect(low.replaceAll(' fetchpriority="low"', "")).toBe(PAGE);
    const script = rewritePage(PAGE, "module script at low priority");
    expect(script).not.toMatch(/<link fetchpriority/);
    expect(script.replaceAll(' fetchpriority="low"', "")).toBe(PAGE);
    expect(script.match(/fetchpriority/g)).toHaveLength(1);
  });

  it("inlines the style sheet in the third variant", () => {
    const page = rewritePage(PAGE, "scripts after load, style sheet inline", "main{color:red}");
    expect(page).toContain("<style>main{color:red}</style>");
    expect(page).not.toContain('rel="stylesheet"');
    expect(page).not.toContain("modulepreload");
  });

  it("refuses a page it cannot rewrite, rather than measure it unchanged under another name", () => {
    expect(() => rewritePage("<html><body></body></html>", "scripts after load")).toThrow(/modulepreload/);
  });
});

describe("styleSheetHref", () => {
  it("finds the page's style sheet", () => {
    expect(styleSheetHref(PAGE)).toBe("/assets/app-1.css");
    expect(styleSheetHref("<html></html>")).toBeUndefined();
  });
});

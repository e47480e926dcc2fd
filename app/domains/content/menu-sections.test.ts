import { describe, expect, it } from "vitest";
import { validateSettings } from "#app/domains/settings/settings-form.ts";
import {
  DEFAULT_MENU_ORDER,
  MENU_SECTION_IDS,
  type MenuItem,
  menuItemsFor,
  menuOrderOf,
  menuOrderProblem,
} from "./menu-sections.ts";

const items: MenuItem<string>[] = [
  { id: "gallery", to: "/", label: "Gallery" },
  { id: "home", to: "/home", label: "Home" },
  { id: "links", to: "/links", label: "Links", section: "links" },
  { id: "faq", to: "/faq", label: "FAQ", section: "faq" },
  { id: "videos", to: "/videos", label: "Videos", section: "videos" },
  { id: "blog", to: "/blog", label: "Blog", section: "blog" },
  { id: "contact", to: "/contact", label: "Contact", section: "contact" },
  { id: "albums", to: "/albums", label: "Albums", section: "albums" },
];

const all = { links: true, faq: true, videos: true, blog: true, contact: true, albums: true };
const none = { links: false, faq: false, videos: false, blog: false, contact: false, albums: false };
const paths = (sections: Parameters<typeof menuItemsFor>[1], order?: Parameters<typeof menuItemsFor>[2]) =>
  menuItemsFor(items, sections, order).map((item) => item.to);

describe("the main menu's content pages", () => {
  it("leaves out the content pages without a published entry, keeping the others in order", () => {
    expect(paths(none)).toEqual(["/", "/home"]);
    expect(paths({ ...none, faq: true })).toEqual(["/", "/home", "/faq"]);
    expect(paths({ ...none, blog: true })).toEqual(["/", "/home", "/blog"]);
    expect(paths({ ...none, contact: true })).toEqual(["/", "/home", "/contact"]);
    expect(paths({ ...none, albums: true })).toEqual(["/", "/home", "/albums"]);
    expect(paths(all)).toEqual(["/", "/home", "/links", "/faq", "/videos", "/blog", "/contact", "/albums"]);
  });

  it("follows the owner's order, also with sections left out", () => {
    const order = menuOrderOf("blog,home,albums,faq,gallery,contact,videos,links");
    expect(paths(all, order)).toEqual(["/blog", "/home", "/albums", "/faq", "/", "/contact", "/videos", "/links"]);
    expect(paths({ ...none, blog: true }, order)).toEqual(["/blog", "/home", "/"]);
  });
});

describe("the stored menu order", () => {
  it("is every section by default", () => {
    expect(menuOrderOf(DEFAULT_MENU_ORDER)).toEqual([...MENU_SECTION_IDS]);
    expect(menuOrderOf("")).toEqual([...MENU_SECTION_IDS]);
  });

  it("puts a section the stored order does not name yet (added in a later version) at the end", () => {
    expect(menuOrderOf("blog,gallery,home")).toEqual([
      "blog",
      "gallery",
      "home",
      "links",
      "faq",
      "videos",
      "contact",
      "albums",
    ]);
    // An order saved before the contact form existed shows it last.
    expect(menuOrderOf("blog,videos,faq,links,home,gallery")).toEqual([
      "blog",
      "videos",
      "faq",
      "links",
      "home",
      "gallery",
      "contact",
      "albums",
    ]);
  });

  it("skips names it does not know and repeats, so an odd stored value never breaks the menu", () => {
    expect(menuOrderOf("videos,shop,videos, HOME ,,gallery")).toEqual([
      "videos",
      "home",
      "gallery",
      "links",
      "faq",
      "blog",
      "contact",
      "albums",
    ]);
  });
});

describe("a submitted menu order", () => {
  it.each([
    ["gallery,home,links,faq,videos,blog,contact,albums", null],
    ["albums, contact, blog, videos, faq, links, home, gallery", null],
    ["gallery,home,links,faq,videos,blog,contact,albums,shop", "menuOrderUnknown"],
    ["gallery,home,links,faq,videos,contact,videos", "menuOrderDuplicate"],
    ["gallery,home,links,faq,videos,blog,contact,albums,blog", "menuOrderDuplicate"],
    // An order of before albums existed: a form of this version always sends every section.
    ["gallery,home,links,faq,videos,blog,contact", "menuOrderMissing"],
    ["gallery,home,links,faq,videos,blog", "menuOrderMissing"],
    ["", "menuOrderMissing"],
  ])("%j → %s", (value, problem) => {
    expect(menuOrderProblem(value)).toBe(problem);
  });

  it("is saved normalised when it is one of each section, and refused with the reason otherwise", () => {
    expect(validateSettings({ menu_order: " Blog, videos,faq,links,home,gallery,Contact,Albums " })).toEqual({
      ok: true,
      values: { menu_order: "blog,videos,faq,links,home,gallery,contact,albums" },
    });
    expect(validateSettings({ menu_order: "gallery,home,links,faq,videos,contact,shop" })).toEqual({
      ok: false,
      unknownKeys: [],
      problems: { menu_order: "menuOrderUnknown" },
    });
    expect(validateSettings({ menu_order: "gallery,gallery,links,faq,videos,blog,contact" })).toMatchObject({
      ok: false,
      problems: { menu_order: "menuOrderDuplicate" },
    });
    expect(validateSettings({ menu_order: "gallery,home" })).toMatchObject({
      ok: false,
      problems: { menu_order: "menuOrderMissing" },
    });
    expect(validateSettings({ menu_order: "gallery,home\nlinks,faq,videos,blog,contact" })).toMatchObject({
      ok: false,
      problems: { menu_order: "lineBreak" },
    });
  });
});

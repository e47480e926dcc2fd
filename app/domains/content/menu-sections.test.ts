import { describe, expect, it } from "vitest";
import { type MenuItem, menuItemsFor } from "./menu-sections.ts";

const items: MenuItem<string>[] = [
  { to: "/", label: "Gallery" },
  { to: "/home", label: "Home" },
  { to: "/links", label: "Links", section: "links" },
  { to: "/faq", label: "FAQ", section: "faq" },
  { to: "/videos", label: "Videos", section: "videos" },
  { to: "/blog", label: "Blog", section: "blog" },
  { to: "/contact", label: "Contact", section: "contact" },
];

const paths = (sections: Parameters<typeof menuItemsFor>[1]) => menuItemsFor(items, sections).map((item) => item.to);

describe("the main menu's content pages", () => {
  it("leaves out the content pages without a published entry, keeping the others in order", () => {
    expect(paths({ links: false, faq: false, videos: false, blog: false, contact: false })).toEqual(["/", "/home"]);
    expect(paths({ links: false, faq: true, videos: false, blog: false, contact: false })).toEqual([
      "/",
      "/home",
      "/faq",
    ]);
    expect(paths({ links: false, faq: false, videos: false, blog: true, contact: false })).toEqual([
      "/",
      "/home",
      "/blog",
    ]);
    expect(paths({ links: false, faq: false, videos: false, blog: false, contact: true })).toEqual([
      "/",
      "/home",
      "/contact",
    ]);
    expect(paths({ links: true, faq: true, videos: true, blog: true, contact: true })).toEqual([
      "/",
      "/home",
      "/links",
      "/faq",
      "/videos",
      "/blog",
      "/contact",
    ]);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { ImageError } from "#app/domains/media/image-encode.server.ts";
import { createLocalStorage, type FileStorage } from "#app/domains/media/storage.server.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { readSettings } from "./settings.server.ts";
import { saveSettings } from "./settings-admin.server.ts";
import { removeReplacedSiteImage, siteImageKeys, storeSiteImage, sweepOrphanSiteImages } from "./site-images.server.ts";
import { faviconUrls, type SiteImageKind } from "./site-images.ts";

describe("uploaded favicon links", () => {
  it("name every size beside the 32 px file", () => {
    expect(faviconUrls("/media/site/favicon-0123456789abcdef-32.png")).toEqual([
      { rel: "icon", sizes: "32x32", href: "/media/site/favicon-0123456789abcdef-32.png", type: "image/png" },
      {
        rel: "apple-touch-icon",
        sizes: "180x180",
        href: "/media/site/favicon-0123456789abcdef-180.png",
        type: "image/png",
      },
      { rel: "icon", sizes: "192x192", href: "/media/site/favicon-0123456789abcdef-192.png", type: "image/png" },
      { rel: "icon", sizes: "512x512", href: "/media/site/favicon-0123456789abcdef-512.png", type: "image/png" },
    ]);
  });

  it("leave a typed favicon address alone", () => {
    expect(faviconUrls("https://example.com/favicon.ico")).toBeNull();
    expect(faviconUrls("/media/site/favicon-xyz-32.png")).toBeNull();
    expect(siteImageKeys("https://example.com/media/site/logo-0123456789abcdef.webp")).toEqual([]);
    expect(siteImageKeys("/media/images/abc/640.webp")).toEqual([]);
  });
});

describe.each(databaseKinds)("site images (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  let dir: string;
  let storage: FileStorage;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-site-images-"));
    storage = createLocalStorage({ root: path.join(dir, "storage"), secret: "test-secret" });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function imageFile(name: string, width: number, height: number, color: string, format: "png" | "jpeg" = "png") {
    const file = path.join(dir, name);
    await sharp({ create: { width, height, channels: 4, background: color } })
      .toFormat(format)
      .toFile(file);
    return file;
  }

  /** Stores a plain picture of the given size and colour as the site image of that kind, as an admin upload would. */
  async function storeGeneratedSiteImage(
    kind: SiteImageKind,
    name: string,
    width: number,
    height: number,
    color: string,
    format: "png" | "jpeg" = "png",
  ) {
    return storeSiteImage(database.db, testAdmin, kind, await imageFile(name, width, height, color, format), storage);
  }

  async function sizeOf(key: string) {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.readStream(key)) chunks.push(chunk as Buffer);
    const { width, height, format } = await sharp(Buffer.concat(chunks)).metadata();
    return { width, height, format };
  }

  it("makes the favicon in every size, points the setting at it and records the change", async () => {
    const source = await imageFile("icon.png", 600, 400, "#3366ff");

    const { url, changed } = await storeSiteImage(database.db, testAdmin, "favicon", source, storage);

    expect(changed).toBe(true);
    expect(url).toMatch(/^\/media\/site\/favicon-[0-9a-f]{16}-32\.png$/);
    expect((await readSettings(database.db)).site_favicon_url).toBe(url);
    for (const icon of faviconUrls(url) ?? []) {
      const size = Number(icon.sizes.split("x")[0]);
      expect(await sizeOf(`public/${icon.href.slice("/media/".length)}`)).toEqual({
        width: size,
        height: size,
        format: "png",
      });
    }
    const [record] = (await listAudit(database.db)).records;
    expect(record).toMatchObject({
      action: "settings.update",
      target: "site_favicon_url",
      oldValue: "",
      newValue: url,
    });
  });

  it("makes a 1200×630 JPEG share image and a logo at most 128 px high", async () => {
    const share = await storeGeneratedSiteImage("share-image", "s.jpg", 2000, 2000, "#aa0000", "jpeg");
    expect(share.url).toMatch(/^\/media\/site\/share-[0-9a-f]{16}\.jpg$/);
    expect(await sizeOf(siteImageKeys(share.url)[0] ?? "")).toEqual({ width: 1200, height: 630, format: "jpeg" });

    const logo = await storeGeneratedSiteImage("logo", "l.png", 800, 400, "#00aa00");
    expect(logo.url).toMatch(/^\/media\/site\/logo-[0-9a-f]{16}\.webp$/);
    expect(await sizeOf(siteImageKeys(logo.url)[0] ?? "")).toEqual({ width: 256, height: 128, format: "webp" });
    const settings = await readSettings(database.db);
    expect(settings.meta_og_image).toBe(share.url);
    expect(settings.site_logo_url).toBe(logo.url);
  });

  it("removes the files of the image it replaces, and keeps the same image uploaded again", async () => {
    const first = await storeGeneratedSiteImage("favicon", "a.png", 64, 64, "#111111");
    const again = await storeGeneratedSiteImage("favicon", "b.png", 64, 64, "#111111");
    expect(again).toEqual({ url: first.url, changed: false });
    for (const key of siteImageKeys(first.url)) expect(await storage.stat(key)).not.toBeNull();

    const second = await storeGeneratedSiteImage("favicon", "c.png", 64, 64, "#eeeeee");

    expect(second.url).not.toBe(first.url);
    for (const key of siteImageKeys(first.url)) expect(await storage.stat(key)).toBeNull();
    for (const key of siteImageKeys(second.url)) expect(await storage.stat(key)).not.toBeNull();
  });

  it("refuses a file that is not an image and changes nothing", async () => {
    const fake = path.join(dir, "fake.png");
    fs.writeFileSync(fake, "<svg xmlns='http://www.w3.org/2000/svg'></svg>");

    await expect(storeSiteImage(database.db, testAdmin, "logo", fake, storage)).rejects.toBeInstanceOf(ImageError);

    expect((await readSettings(database.db)).site_logo_url).toBe("");
    expect(await storage.list("public/")).toEqual([]);
    expect((await listAudit(database.db)).total).toBe(0);
  });

  it("leaves files alone that a replaced value did not name", async () => {
    const logo = await storeGeneratedSiteImage("logo", "l.png", 100, 50, "#123456");
    await removeReplacedSiteImage("https://example.com/logo.png", logo.url, {}, storage);
    await removeReplacedSiteImage(logo.url, logo.url, {}, storage);
    expect(await storage.stat(siteImageKeys(logo.url)[0] ?? "")).not.toBeNull();
  });

  it("sweeps site image files no image setting names, once older than the grace period", async () => {
    const logo = await storeGeneratedSiteImage("logo", "a.png", 100, 50, "#111111");
    const favicon = await storeGeneratedSiteImage("favicon", "f.png", 64, 64, "#222222");
    // The same upload serving as the share image too.
    await saveSettings(database.db, testAdmin, { meta_og_image: logo.url });
    await storage.save("public/site/logo-00000000000000aa.webp", Buffer.from("left by a crash"));
    await storage.save("public/site/share-00000000000000bb.jpg", Buffer.from("left by a crash"));
    const hour = 60 * 60 * 1000;

    expect(await sweepOrphanSiteImages(database.db, { olderThanMs: hour, storage })).toEqual([]);
    const removed = await sweepOrphanSiteImages(database.db, {
      olderThanMs: hour,
      storage,
      now: Date.now() + 2 * hour,
    });

    expect(removed.sort()).toEqual([
      "public/site/logo-00000000000000aa.webp",
      "public/site/share-00000000000000bb.jpg",
    ]);
    const left = (await storage.list("public/site/")).map((file) => file.key).sort();
    expect(left).toEqual([...siteImageKeys(logo.url), ...siteImageKeys(favicon.url)].sort());
  });
});

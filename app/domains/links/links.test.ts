import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { linksService, listLinksForAdmin, listPublishedLinks } from "./links.server.ts";

const valid = {
  title: "My code",
  title_de: "Mein Code",
  url: "https://example.com/code",
  icon: "github",
  active: "on",
};

describe.each(databaseKinds)("links (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("refuses addresses that are not http(s), mailto: or tel: addresses, changing nothing", async () => {
    for (const url of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "ftp://example.com",
      "mailto:",
      "mailto:no-at-sign",
      "mailto:me@example.com?subject=hi",
      "mailto:me@example.com,you@example.com",
      "tel:",
      "tel:12a34",
      "tel:+49 30\n123",
      "/relative/path",
      "example.com",
      "",
    ]) {
      const result = await linksService.create(database.db, testAdmin, { ...valid, url });
      expect(result, url).toMatchObject({ ok: false, reason: "invalid" });
      expect(result.ok ? "" : "fieldErrors" in result ? result.fieldErrors.url : "").toMatch(/^admin\./);
    }
    expect(await listLinksForAdmin(database.db)).toEqual([]);
    expect((await listAudit(database.db)).total).toBe(0);
  });

  it("accepts mailto: and tel: addresses, stored as typed with the scheme in lower case", async () => {
    for (const url of ["mailto:me@example.com", "MAILTO:Me@Example.com", "tel:+49 (30) 123-456", "TEL:0301234"]) {
      expect(await linksService.create(database.db, testAdmin, { ...valid, url }), url).toMatchObject({ ok: true });
    }
    expect((await listLinksForAdmin(database.db)).map((link) => link.url)).toEqual([
      "mailto:me@example.com",
      "mailto:Me@Example.com",
      "tel:+49 (30) 123-456",
      "tel:0301234",
    ]);
  });

  it("refuses a bad address on update and keeps the stored link", async () => {
    const id = idOfAccepted(await linksService.create(database.db, testAdmin, valid));

    const result = await linksService.update(database.db, testAdmin, id, { ...valid, url: "javascript:void(0)" });

    expect(result).toEqual({ ok: false, reason: "invalid", fieldErrors: { url: "admin.links.error.url" } });
    expect((await listLinksForAdmin(database.db))[0]?.url).toBe(valid.url);
  });

  it("stores the icon name in lower case, a missing one as the generic link, and refuses odd characters", async () => {
    await linksService.create(database.db, testAdmin, { ...valid, icon: " Mail " });
    await linksService.create(database.db, testAdmin, { ...valid, icon: "" });
    await linksService.create(database.db, testAdmin, { ...valid, icon: "no-such-icon" });
    const odd = await linksService.create(database.db, testAdmin, { ...valid, icon: "<svg>" });

    expect((await listLinksForAdmin(database.db)).map((link) => link.icon)).toEqual(["mail", "link", "no-such-icon"]);
    expect(odd).toEqual({ ok: false, reason: "invalid", fieldErrors: { icon: "admin.links.error.icon" } });
  });

  it("titles links in German, falling back to English when the German title is empty", async () => {
    await linksService.create(database.db, testAdmin, valid);
    await linksService.create(database.db, testAdmin, { ...valid, title: "Photos", title_de: "  " });

    expect((await listPublishedLinks(database.db, "de")).map((link) => link.title)).toEqual(["Mein Code", "Photos"]);
    expect((await listPublishedLinks(database.db, "en")).map((link) => link.title)).toEqual(["My code", "Photos"]);
    expect((await listPublishedLinks(database.db, "en"))[0]).toMatchObject({ url: valid.url, icon: "github" });
  });
});

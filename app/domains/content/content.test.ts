import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { linksService } from "#app/domains/links/links.server.ts";
import { videosService } from "#app/domains/videos/videos.server.ts";
import { storageIn } from "#tests/support/gallery-factories.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";

/** The three areas share one service; each row here is one area with a valid form for item n. */
const areas = [
  {
    area: "links",
    table: "links",
    service: linksService,
    fields: (n: number) => ({ title: `Link ${n}`, url: `https://example.com/${n}`, icon: "globe", active: "on" }),
    name: (n: number) => `Link ${n}`,
  },
  {
    area: "faq",
    table: "faq_entries",
    service: faqService,
    fields: (n: number) => ({ question: `Question ${n}?`, answer: `Answer **${n}**`, active: "on" }),
    name: (n: number) => `Question ${n}?`,
  },
  {
    area: "videos",
    table: "videos",
    service: videosService,
    fields: (n: number) => ({ title: `Video ${n}`, embed_url: `https://youtu.be/abcdefghij${n}`, active: "on" }),
    name: (n: number) => `Video ${n}`,
  },
] as const;

// Links and FAQ entries have no files; a video's go with it (its own tests check that). A storage nobody reads.
const storage = storageIn(path.join(os.tmpdir(), "vitrine-content-test"));

describe.each(databaseKinds)("content items (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  describe.each(areas)("$area", ({ area, table, service, fields, name }) => {
    const rowName = (row: object) => String("title" in row ? row.title : "question" in row ? row.question : "");
    const titles = async () => (await service.listAll(database.db)).map(rowName);
    const activeNames = async () => (await service.listActive(database.db)).map(rowName);

    it("creates items at the end of the order and records who did it", async () => {
      idOfAccepted(await service.create(database.db, testAdmin, fields(1)));
      idOfAccepted(await service.create(database.db, testAdmin, fields(2)));

      expect(await titles()).toEqual([name(1), name(2)]);
      const { records } = await listAudit(database.db);
      expect(records.map((r) => [r.action, r.target, r.actorEmail])).toEqual([
        [`${area}.create`, name(2), testAdmin.email],
        [`${area}.create`, name(1), testAdmin.email],
      ]);
    });

    it("updates an item and records the old and new values", async () => {
      const id = idOfAccepted(await service.create(database.db, testAdmin, fields(1)));

      idOfAccepted(await service.update(database.db, testAdmin, id, { ...fields(7) }));

      expect(await activeNames()).toEqual([name(7)]);
      const [record] = (await listAudit(database.db, { action: `${area}.update` })).records;
      expect(record?.target).toBe(name(7));
      expect(record?.oldValue).toContain(name(1));
      expect(record?.newValue).toContain(name(7));
    });

    it("deletes an item", async () => {
      const id = idOfAccepted(await service.create(database.db, testAdmin, fields(1)));
      idOfAccepted(await service.create(database.db, testAdmin, fields(2)));

      idOfAccepted(await service.remove(database.db, testAdmin, id, storage));

      expect(await activeNames()).toEqual([name(2)]);
      expect((await listAudit(database.db, { action: `${area}.delete` })).records[0]?.target).toBe(name(1));
      expect(await service.remove(database.db, testAdmin, id, storage)).toEqual({ ok: false, reason: "not-found" });
    });

    it("stores a new order and refuses a stale list without changing anything", async () => {
      const ids = [];
      for (const n of [1, 2, 3]) ids.push(idOfAccepted(await service.create(database.db, testAdmin, fields(n))));

      idOfAccepted(await service.reorder(database.db, testAdmin, [ids[2], ids[0], ids[1]] as string[]));
      expect(await activeNames()).toEqual([name(3), name(1), name(2)]);

      expect(await service.reorder(database.db, testAdmin, [ids[0], ids[1]] as string[])).toEqual({
        ok: false,
        reason: "stale",
      });
      expect(await activeNames()).toEqual([name(3), name(1), name(2)]);
      const { records } = await listAudit(database.db, { action: `${area}.reorder` });
      // The moved item by its title and places, never the ids.
      expect(records.map((record) => [record.target, record.oldValue, record.newValue])).toEqual([
        [name(3), "3/3", "1/3"],
      ]);
    });

    it("hides and shows an item; hidden items stay in the admin list only", async () => {
      const id = idOfAccepted(await service.create(database.db, testAdmin, fields(1)));
      idOfAccepted(await service.create(database.db, testAdmin, fields(2)));

      idOfAccepted(await service.setActive(database.db, testAdmin, id, false));
      expect(await activeNames()).toEqual([name(2)]);
      expect((await service.listAll(database.db)).length).toBe(2);

      idOfAccepted(await service.setActive(database.db, testAdmin, id, true));
      expect(await activeNames()).toEqual([name(1), name(2)]);
      const actions = (await listAudit(database.db)).records.map((r) => r.action);
      expect(actions.slice(0, 2)).toEqual([`${area}.activate`, `${area}.deactivate`]);
    });

    it("creates an item unticked as inactive", async () => {
      const { active: _active, ...unticked } = fields(1);
      idOfAccepted(await service.create(database.db, testAdmin, unticked));

      expect(await activeNames()).toEqual([]);
      expect((await service.listAll(database.db)).length).toBe(1);
    });

    it("refuses an empty title or question and changes nothing", async () => {
      const id = idOfAccepted(await service.create(database.db, testAdmin, fields(1)));
      const titleField = area === "faq" ? "question" : "title";

      const created = await service.create(database.db, testAdmin, { ...fields(2), [titleField]: "   " });
      const updated = await service.update(database.db, testAdmin, id, { ...fields(2), [titleField]: "" });

      for (const result of [created, updated]) {
        expect(result).toEqual({
          ok: false,
          reason: "invalid",
          fieldErrors: { [titleField]: "admin.content.error.required" },
        });
      }
      expect(await activeNames()).toEqual([name(1)]);
      expect((await database.db.selectFrom(table).select("id").execute()).length).toBe(1);
      expect((await listAudit(database.db)).total).toBe(1);
    });
  });
});

import { describe, expect, it } from "vitest";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { AUDIT_VALUE_MAX, listAudit, recordAudit } from "./audit.server.ts";

const actor = { id: "user-1", email: "owner@example.test" };

describe.each(databaseKinds)("audit log (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("lists records newest first with who, what, when and the values", async () => {
    await recordAudit(database.db, actor, {
      action: "settings.update",
      target: "site_name",
      oldValue: "A",
      newValue: "B",
    });
    await recordAudit(database.db, actor, [
      { action: "invites.create", target: "AAAA-BBBB" },
      { action: "invites.delete", target: "CCCC-DDDD" },
    ]);

    const { records, total } = await listAudit(database.db);

    expect(total).toBe(3);
    expect(records.map((r) => [r.action, r.target])).toEqual([
      ["invites.delete", "CCCC-DDDD"],
      ["invites.create", "AAAA-BBBB"],
      ["settings.update", "site_name"],
    ]);
    expect(records[2]).toMatchObject({ actorEmail: actor.email, oldValue: "A", newValue: "B" });
    expect(Date.now() - new Date(records[0]?.createdAt ?? 0).getTime()).toBeLessThan(60_000);
  });

  it("cuts long values and filters by area", async () => {
    await recordAudit(database.db, actor, { action: "faq.update", target: "Q", newValue: "x".repeat(2000) });
    await recordAudit(database.db, actor, { action: "links.create", target: "L" });

    const faq = await listAudit(database.db, { action: "faq." });

    expect(faq.total).toBe(1);
    expect(faq.records[0]?.newValue).toHaveLength(AUDIT_VALUE_MAX + 1);
    expect(faq.records[0]?.newValue?.endsWith("…")).toBe(true);
  });

  it("is rolled back with the transaction it was written in", async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await recordAudit(trx, actor, { action: "links.delete", target: "gone" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");

    expect((await listAudit(database.db)).total).toBe(0);
  });
});

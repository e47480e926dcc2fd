import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { getOwnAccount, setOwnName } from "./account.server.ts";

describe.each(databaseKinds)("the display name (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("is set by the person, audited, and may be emptied; a bad one changes nothing", async () => {
    const user = await createUser(database.db, { email: "ada@example.test" });
    const actor = { id: user.id, email: user.email };
    expect(await setOwnName(database.db, actor, "  Ada Lovelace ")).toEqual({ ok: true, changed: true });
    expect((await getOwnAccount(database.db, user.id))?.name).toBe("Ada Lovelace");
    expect(await setOwnName(database.db, actor, "Ada\nLovelace")).toEqual({ ok: false, reason: "lineBreak" });
    expect(await setOwnName(database.db, actor, "x".repeat(81))).toEqual({ ok: false, reason: "tooLong" });
    expect((await getOwnAccount(database.db, user.id))?.name).toBe("Ada Lovelace");
    expect(await setOwnName(database.db, actor, "")).toEqual({ ok: true, changed: true });
    const { records } = await listAudit(database.db, { action: "account.changeName" });
    expect(records.map((r) => [r.oldValue, r.newValue])).toEqual([
      ["Ada Lovelace", ""],
      ["", "Ada Lovelace"],
    ]);
  });
});

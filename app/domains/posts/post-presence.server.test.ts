import { describe, expect, it } from "vitest";
import { createUser } from "#tests/support/factories.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { leavePresence, listPresence, notePresence, PRESENCE_TIMEOUT_MS } from "./post-presence.server.ts";

const POST = "3f0c2b9e-1111-4c8e-9a55-0123456789ab";
const NOW = new Date("2026-11-25T10:00:00.000Z");
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe.each(databaseKinds)("who has a post open in the editor (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const db = () => database.db;
  const presenceEvents = async () =>
    (
      await db()
        .selectFrom("change_events")
        .select(["action", "entity_id", "audience"])
        .where("area", "=", "presence")
        .orderBy("seq")
        .execute()
    ).map((event) => `${event.action} ${event.entity_id} ${event.audience}`);

  it("lists the other editors by name, one entry per person, the viewer's own other tab as 'you'", async () => {
    const anna = await createUser(db(), { email: "anna@example.test", admin: true });
    const ben = await createUser(db(), { email: "ben@example.test", admin: true });
    await notePresence(db(), { postId: POST, tab: "anna-tab-1", userId: anna.id }, NOW);
    await notePresence(db(), { postId: POST, tab: "anna-tab-2", userId: anna.id }, NOW);
    await notePresence(db(), { postId: POST, tab: "ben-tab-01", userId: ben.id }, NOW);
    expect(await listPresence(db(), { postId: POST, tab: "ben-tab-01", userId: ben.id }, NOW)).toEqual([
      { name: "anna", you: false },
    ]);
    expect(await listPresence(db(), { postId: POST, tab: "anna-tab-1", userId: anna.id }, NOW)).toEqual([
      { name: "anna", you: true },
      { name: "ben", you: false },
    ]);
    // Another post's editors are not this one's.
    expect(await listPresence(db(), { postId: "other-post", tab: "ben-tab-01", userId: ben.id }, NOW)).toEqual([]);
  });

  it("records an admins-only event on arrival and departure, none on a heartbeat; a silent editor goes", async () => {
    const anna = await createUser(db(), { admin: true });
    const ben = await createUser(db(), { admin: true });
    await notePresence(db(), { postId: POST, tab: "anna-tab-1", userId: anna.id }, NOW);
    await notePresence(db(), { postId: POST, tab: "anna-tab-1", userId: anna.id }, later(20_000));
    expect(await presenceEvents()).toEqual([`insert ${POST} admins`]);
    await leavePresence(db(), { postId: POST, tab: "anna-tab-1" }, later(25_000));
    await leavePresence(db(), { postId: POST, tab: "anna-tab-1" }, later(26_000)); // twice: one departure
    expect(await presenceEvents()).toEqual([`insert ${POST} admins`, `delete ${POST} admins`]);

    // Anna's tab falls silent (a crash, a lost connection): after the timeout it is not listed, and the next
    // arrival removes it with its departure event.
    await notePresence(db(), { postId: POST, tab: "anna-tab-2", userId: anna.id }, later(30_000));
    const silent = later(30_000 + PRESENCE_TIMEOUT_MS + 1);
    expect(await listPresence(db(), { postId: POST, tab: "ben-tab-01", userId: ben.id }, silent)).toEqual([]);
    await notePresence(db(), { postId: POST, tab: "ben-tab-01", userId: ben.id }, silent);
    expect(await db().selectFrom("editor_presence").select("tab").execute()).toEqual([{ tab: "ben-tab-01" }]);
    expect((await presenceEvents()).slice(2)).toEqual([
      `insert ${POST} admins`,
      `delete ${POST} admins`,
      `insert ${POST} admins`,
    ]);
  });

  it("forgets an editor whose account is deleted", async () => {
    const anna = await createUser(db(), { admin: true });
    await notePresence(db(), { postId: POST, tab: "anna-tab-1", userId: anna.id }, NOW);
    await db().deleteFrom("user").where("id", "=", anna.id).execute();
    expect(await db().selectFrom("editor_presence").selectAll().execute()).toEqual([]);
  });
});

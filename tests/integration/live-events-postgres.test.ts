import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInAdminAndMember } from "#tests/support/admin-server.ts";
import { type Reader, readStream, seqsIn, until } from "#tests/support/live-stream-site.ts";
import { postForm, type ServerProcess, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { createTestDatabase, hasPostgres, type TestDatabase } from "#tests/support/test-database.ts";

// Issue 19 with more than one server process on one PostgreSQL database (as behind a load balancer): a save
// through one reaches the streams held on the other by the database's NOTIFY, within a second, under the same ids.

describe.skipIf(!hasPostgres)("live events across two servers on one PostgreSQL database", () => {
  let database: TestDatabase;
  let serverA: ServerProcess;
  let serverB: ServerProcess;
  let dataDirB: string;
  let adminCookie: string;
  const open: Reader[] = [];

  const stream = async (server: ServerProcess, options: Parameters<typeof readStream>[1] = {}) => {
    const opened = await readStream(server.url("/api/events"), options);
    open.push(opened);
    await until(() => opened.messages.some((message) => message.event === "ready"));
    return opened;
  };

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const databaseUrl = database.location.databaseUrl;
    serverA = await startServer({ dataDir: database.location.dataDir, databaseUrl, authSecret: TEST_AUTH_SECRET });
    dataDirB = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-live-b-"));
    serverB = await startServer({ dataDir: dataDirB, databaseUrl, authSecret: TEST_AUTH_SECRET });
    ({ adminCookie } = await signedInAdminAndMember(database));
  });

  afterAll(async () => {
    for (const each of open) each.close();
    const codes = [await serverA?.stop(), await serverB?.stop()];
    await database?.destroy();
    if (dataDirB) fs.rmSync(dataDirB, { recursive: true, force: true });
    expect(codes).toEqual([0, 0]);
  });

  /** When the first `change` message naming the area arrived (the reader notes each message's arrival). */
  const arrivalOf = async (reader: Reader, area: string) => {
    const named = () =>
      reader.messages.find(
        (message) =>
          message.event === "change" &&
          (message.data as { events: { area: string }[] }).events.some((event) => event.area === area),
      );
    await until(
      () => named() !== undefined,
      () => reader.messages,
      5000,
    );
    return named()?.at ?? Number.NaN;
  };

  const events = (reader: Reader) =>
    reader.messages
      .filter((message) => message.event === "change")
      .flatMap((message) => (message.data as { events: { seq: number; area: string; id: string | null }[] }).events);

  it.each([
    ["A", "B"],
    ["B", "A"],
  ])("carries an admin's save through server %s to a stream held on server %s within a second", async (from, to) => {
    const [writer, other] = from === "A" ? [serverA, serverB] : [serverB, serverA];
    const [adminThere, visitorThere, adminHere] = [
      await stream(other, { cookie: adminCookie }),
      await stream(other),
      await stream(writer, { cookie: adminCookie }),
    ];
    try {
      const title = `Live across ${from} to ${to}`;
      const saved = Date.now();
      const response = await postForm(
        writer,
        "/admin/links",
        { intent: "create", title, url: "https://example.com/x", icon: "globe", active: "on" },
        { cookie: adminCookie },
      );
      expect(response.status).toBe(200);
      // Measured to the moment the message arrived on the other server's stream, not to when the test looked.
      expect((await arrivalOf(adminThere, "links")) - saved).toBeLessThan(1000);

      const link = await database.db
        .selectFrom("links")
        .select("id")
        .where("title", "=", title)
        .executeTakeFirstOrThrow();
      expect(events(adminThere).filter((event) => event.area === "links")).toEqual([
        { seq: expect.any(Number), area: "links", action: "insert", id: link.id },
      ]);
      // The active link is for everyone, its audit entry only for admins; the same seqs on both servers, so a
      // browser that reconnects to the other one resumes where it was.
      await arrivalOf(adminThere, "audit");
      expect((await arrivalOf(visitorThere, "links")) - saved).toBeLessThan(1000);
      expect(events(visitorThere).map((event) => event.area)).toEqual(["links"]);
      await arrivalOf(adminHere, "audit");
      expect(events(adminHere)).toEqual(events(adminThere));
    } finally {
      for (const each of [adminThere, visitorThere, adminHere]) each.close();
    }
  });

  it("resumes on one server from the id a stream on the other gave, with exactly what it missed", async () => {
    const onA = await stream(serverA, { cookie: adminCookie });
    const ready = onA.messages[0];
    onA.close();
    const title = "Saved while the browser moved";
    const response = await postForm(
      serverA,
      "/admin/links",
      { intent: "create", title, url: "https://example.com/y", icon: "globe", active: "on" },
      { cookie: adminCookie },
    );
    expect(response.status).toBe(200);
    const rows = await database.db
      .selectFrom("change_events")
      .select(["seq", "area"])
      .where("seq", ">", Number(ready?.id))
      .where("audience", "!=", "nobody")
      .orderBy("seq")
      .execute();
    expect(rows.map((row) => row.area).sort()).toEqual(["audit", "links"]);
    expect(ready?.event).toBe("ready");
    const onB = await stream(serverB, { cookie: adminCookie, lastEventId: ready?.id });
    const last = Number(rows.at(-1)?.seq);
    await until(
      () => seqsIn(onB).includes(last),
      () => onB.messages,
      3000,
    );
    expect(seqsIn(onB)).toEqual(rows.map((row) => Number(row.seq)));
  });
});

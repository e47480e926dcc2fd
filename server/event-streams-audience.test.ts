import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  identity,
  type Reader,
  type StreamSite,
  seqsIn,
  serveStreams,
  until,
} from "#tests/support/live-stream-site.ts";

// Who a stream carries what to (server/event-streams.ts): each event only to those its audience admits, and
// nothing after a change to the holder's own roles or sessions until the stream knows who holds it now.

let site: StreamSite;

beforeEach(async () => {
  site = await serveStreams();
  site.people.set("who=member", identity("member", "u-member"));
  site.people.set("who=admin", identity("admin", "u-admin"));
});

afterEach(async () => {
  await site.close();
});

const ready = async (reader: Reader) => {
  await until(() => reader.messages.some((message) => message.event === "ready"));
  return reader;
};

const open = async (cookie?: string, lastEventId?: string) => ready(await site.open({ cookie, lastEventId }));

/** Fails within a few seconds rather than at the test's timeout when the stream stays open. */
const ended = (reader: Reader) =>
  until(
    () => reader.isEnded(),
    () => reader.messages,
  );

const byeOf = (reader: Reader) => reader.messages.find((message) => message.event === "bye")?.data;

/** Waits until every reader has been sent `seq` (or has ended), then a moment for anything sent wrongly. */
async function settled(readers: Reader[], seq: number) {
  await until(() => readers.every((reader) => reader.isEnded() || seqsIn(reader).includes(seq)));
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("audiences", () => {
  it("writes each event only to those who may see it, and 'nobody' or an unknown audience to no one", async () => {
    const [visitor, member, admin] = [await open(), await open("who=member"), await open("who=admin")];
    const events = site.push(
      { audience: "everyone" },
      { audience: "members" },
      { audience: "admins" },
      { audience: "nobody", area: "sessions", id: "someone-else" },
      { audience: "a-future-audience" },
    );
    const marker = site.push({ audience: "everyone" });
    const seq = (index: number) => events[index]?.seq;
    await settled([visitor, member, admin], marker[0]?.seq ?? 0);
    expect(seqsIn(visitor)).toEqual([seq(0), marker[0]?.seq]);
    expect(seqsIn(member)).toEqual([seq(0), seq(1), marker[0]?.seq]);
    expect(seqsIn(admin)).toEqual([seq(0), seq(1), seq(2), marker[0]?.seq]);
    // A message's id is the batch's last seq, seen or not: a resume from it never asks for the hidden ones again.
    const change = visitor.messages.find((message) => message.event === "change");
    expect(change?.id).toBe(String(seq(4)));
    // The event names what changed, never who it was for.
    expect(admin.body()).not.toContain("audience");
  });

  it("writes nothing for a batch of which the viewer may see nothing", async () => {
    const visitor = await open();
    site.push({ audience: "admins" }, { audience: "members" });
    const [shown] = site.push({ audience: "everyone" });
    await settled([visitor], shown?.seq ?? 0);
    expect(visitor.messages.map((message) => message.event)).toEqual(["ready", "change"]);
    expect(seqsIn(visitor)).toEqual([shown?.seq]);
  });

  it("replays from Last-Event-ID only what the viewer may see, and says reset when that is no longer kept", async () => {
    const first = site.push({ audience: "everyone" });
    const missed = site.push({ audience: "admins" }, { audience: "everyone" });
    const visitor = await open(undefined, String(first[0]?.seq));
    await settled([visitor], missed[1]?.seq ?? 0);
    expect(seqsIn(visitor)).toEqual([missed[1]?.seq]);
    site.trim(missed[0]?.seq ?? 0);
    const late = await open(undefined, String(first[0]?.seq));
    await until(() => late.messages.length === 2);
    expect(late.messages[1]).toMatchObject({ event: "reset", data: { seq: site.feed.head() } });
    expect(seqsIn(late)).toEqual([]);
  });
});

describe("a group's items (issue 42)", () => {
  it("writes a groups event to admins and to the members the batch's one read names, and to no one else", async () => {
    await site.close();
    const asked: number[][] = [];
    site = await serveStreams({
      async groupReaders(events) {
        asked.push(events.map((event) => event.seq));
        // The first groups event is for u-family's group; the second for a group no open stream is in.
        const groups = events.filter((event) => event.audience === "groups");
        return new Map([[groups[0]?.seq ?? -1, new Set(["u-family"])]]);
      },
    });
    site.people.set("who=family", identity("member", "u-family"));
    site.people.set("who=friend", identity("member", "u-friend"));
    site.people.set("who=admin", identity("admin", "u-admin"));
    const [visitor, family, friend, admin] = [
      await open(),
      await open("who=family"),
      await open("who=friend"),
      await open("who=admin"),
    ];
    const events = site.push({ audience: "groups", area: "gallery", id: "p1" }, { audience: "groups", area: "posts" });
    const [marker] = site.push({ audience: "everyone" });
    await settled([visitor, family, friend, admin], marker?.seq ?? 0);
    expect(seqsIn(family)).toEqual([events[0]?.seq, marker?.seq]);
    expect(seqsIn(friend)).toEqual([marker?.seq]);
    expect(seqsIn(visitor)).toEqual([marker?.seq]);
    expect(seqsIn(admin)).toEqual([events[0]?.seq, events[1]?.seq, marker?.seq]);
    // Read once for the batch, whatever the number of members' streams; not at all for a batch without groups events.
    expect(asked).toEqual([events.map((event) => event.seq)]);
  });

  it("writes a groups event to no member when the read fails, and says why; admins still hear it", async () => {
    await site.close();
    site = await serveStreams({
      groupReaders: () => Promise.reject(new Error("the database went away")),
    });
    site.people.set("who=family", identity("member", "u-family"));
    site.people.set("who=admin", identity("admin", "u-admin"));
    const [family, admin] = [await open("who=family"), await open("who=admin")];
    const [event] = site.push({ audience: "groups", area: "gallery", id: "p1" });
    const [marker] = site.push({ audience: "everyone" });
    await settled([family, admin], marker?.seq ?? 0);
    expect(seqsIn(family)).toEqual([marker?.seq]);
    expect(seqsIn(admin)).toEqual([event?.seq, marker?.seq]);
    expect(String(site.errors[0])).toContain("the database went away");
  });
});

describe("a change to the holder's own roles or sessions", () => {
  it("holds what follows until the re-check, and ends a demoted admin's stream without a later admin event", async () => {
    const [admin, visitor] = [await open("who=admin"), await open()];
    site.people.set("who=admin", identity("member", "u-admin"));
    const release = site.hold();
    const [before, demotion, hiddenLink] = site.push(
      { audience: "everyone" },
      { area: "users", id: "u-admin", audience: "admins" },
      { audience: "admins" },
    );
    const [message] = site.push({ area: "messages", audience: "admins" });
    // What came before the demotion goes out; the rest waits for the session to be read again.
    await settled([admin, visitor], before?.seq ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seqsIn(admin)).toEqual([before?.seq]);
    expect(site.identifyCalls).toEqual(["who=admin", undefined, "who=admin"]);
    release();
    await ended(admin);
    expect(byeOf(admin)).toEqual({ reason: "role-changed" });
    for (const hidden of [demotion, hiddenLink, message]) expect(seqsIn(admin)).not.toContain(hidden?.seq);
    // The others' streams are not held by it.
    expect(visitor.isEnded()).toBe(false);
    await until(() => site.streams.size() === 1);
  });

  it("ends the stream of a user whose session ended (never sending that event), and goes on when nothing changed", async () => {
    const [member, admin] = [await open("who=member"), await open("who=admin")];
    site.people.delete("who=member");
    const [, afterwards] = site.push(
      { area: "sessions", id: "u-member", audience: "nobody" },
      { area: "users", id: "u-admin", audience: "admins" },
    );
    const [next] = site.push({ audience: "members" });
    await ended(member);
    expect(byeOf(member)).toEqual({ reason: "signed-out" });
    expect(seqsIn(member)).toEqual([]);
    // The admin's own account changed, and they are still an admin: everything after it, in order.
    await settled([admin], next?.seq ?? 0);
    expect(seqsIn(admin)).toEqual([afterwards?.seq, next?.seq]);
    expect(byeOf(admin)).toBeUndefined();
  });

  it("ends the stream when the session cannot be read again", async () => {
    const admin = await open("who=admin");
    site.failIdentify(new Error("database away"));
    site.push({ area: "users", id: "u-admin", audience: "admins" }, { audience: "admins" });
    await ended(admin);
    expect(byeOf(admin)).toEqual({ reason: "unavailable" });
    expect(seqsIn(admin)).toEqual([]);
    expect(site.errors).toEqual([new Error("database away")]);
  });

  it("re-checks a demotion that arrives while the stream's session is being read", async () => {
    // The session was read as an admin's; the demotion commits (and the feed reads it) before the stream opens.
    const release = site.hold();
    const opening = site.open({ cookie: "who=admin" });
    await until(() => site.identifyCalls.length === 1);
    site.people.set("who=admin", identity("member", "u-admin"));
    site.push({ area: "users", id: "u-admin", audience: "admins" });
    release();
    const admin = await ready(await opening);
    const [message] = site.push({ area: "messages", audience: "admins" });
    await settled([admin], message?.seq ?? 0);
    expect(seqsIn(admin)).not.toContain(message?.seq);
    expect(byeOf(admin)).toEqual({ reason: "role-changed" });
  });

  it("re-checks a demotion that a resuming stream's replay carries", async () => {
    const [seen] = site.push({ audience: "everyone" });
    const release = site.hold();
    const opening = site.open({ cookie: "who=admin", lastEventId: String(seen?.seq) });
    await until(() => site.identifyCalls.length === 1);
    site.people.set("who=admin", identity("member", "u-admin"));
    const [, hidden] = site.push({ area: "users", id: "u-admin", audience: "admins" }, { audience: "admins" });
    release();
    const admin = await ready(await opening);
    await settled([admin], hidden?.seq ?? 0);
    expect(seqsIn(admin)).not.toContain(hidden?.seq);
    expect(byeOf(admin)).toEqual({ reason: "role-changed" });
  });

  it("looks at every signed-in stream's session again on the interval, and at no visitor's", async () => {
    await site.close();
    site = await serveStreams({ limits: { recheckMs: 100 } });
    site.people.set("who=member", identity("member", "u-member"));
    const [member, visitor] = [await open("who=member"), await open()];
    site.people.delete("who=member");
    await ended(member);
    expect(byeOf(member)).toEqual({ reason: "signed-out" });
    expect(site.identifyCalls.filter((cookie) => cookie === undefined)).toHaveLength(1);
    expect(visitor.isEnded()).toBe(false);
  });
});

import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createJobWorker, type JobWorker } from "#app/domains/jobs/job-worker.server.ts";
import { createMailService } from "#app/domains/mail/mail.server.ts";
import { mailJobKeyOf } from "#app/domains/mail/mail-job-payload.server.ts";
import { mailJobHandlers } from "#app/domains/mail/mail-jobs.server.ts";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import type { PostWriteResult } from "#app/domains/posts/post-rows.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { startSmtpServer, type TestSmtpServer } from "#tests/support/smtp-server.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { type AnnounceDeps, announceDue, runAnnouncement } from "./announcements.server.ts";
import { isSubscribed, setSubscription, unsubscribeByToken } from "./subscriptions.server.ts";
import { unsubscribeSecretOf, unsubscribeTokenFor, verifyUnsubscribeToken } from "./unsubscribe-token.server.ts";

/*
 * Issue 21: a new post is mailed, through the real mail service and a real SMTP server, to each subscribed account
 * that may read it, once, in its language, with the one-click unsubscribe headers.
 */

const AUTH_SECRET = "announcement-test-auth-secret-that-is-long-enough-0123456789";
const SECRET = unsubscribeSecretOf(AUTH_SECRET);
const BASE = "https://site.example";
const T0 = new Date("2026-03-01T10:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

function accepted(result: PostWriteResult) {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.post;
}

describe.each(databaseKinds)("announcing new posts to subscribers (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const db = () => database.db;
  let smtp: TestSmtpServer | undefined;
  let worker: JobWorker | undefined;
  afterEach(async () => {
    await worker?.stop();
    await smtp?.close();
    worker = undefined;
    smtp = undefined;
  });

  /** The mail service on a real SMTP server, with a job worker that delivers the queued mails. */
  async function mailing(clock: { now: Date }): Promise<AnnounceDeps & { smtp: TestSmtpServer }> {
    smtp = await startSmtpServer();
    const mail = createMailService({
      smtpUrl: smtp.url,
      from: "site@site.example",
      baseUrl: BASE,
      readSiteName: async () => "Anna's Fotos",
      db: db(),
      jobKey: mailJobKeyOf(AUTH_SECRET),
      logger: quiet,
      smtpTimeoutMs: 3000,
    });
    worker = createJobWorker({ db: db(), kind, handlers: mailJobHandlers(mail), logger: quiet, pollMs: 50 });
    await worker.start();
    return { db: db(), mail, baseUrl: BASE, unsubscribeSecret: SECRET, now: () => clock.now, smtp };
  }

  /** Waits until no mail job is left to run, then answers every mail received. */
  async function delivered(server: TestSmtpServer) {
    for (let tries = 0; tries < 200; tries++) {
      const waiting = await db()
        .selectFrom("jobs")
        .select("id")
        .where("kind", "=", "mail.send")
        .where("state", "in", ["queued", "running"])
        .execute();
      if (waiting.length === 0) return server.mails;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("The mail jobs did not finish");
  }

  async function subscriber(options: { admin?: boolean; language?: string; groupId?: string; subscribed?: boolean }) {
    const user = await createUser(db(), { admin: options.admin });
    if (options.language)
      await db().updateTable("user").set({ language: options.language }).where("id", "=", user.id).execute();
    if (options.groupId)
      await db().insertInto("user_groups").values({ user_id: user.id, group_id: options.groupId }).execute();
    if (options.subscribed !== false) await setSubscription(db(), user, "post", true, T0);
    return user;
  }

  async function scene() {
    const family = randomUUID();
    await db().insertInto("member_groups").values({ id: family, name: "Family", created_at: T0 }).execute();
    return {
      family,
      inFamily: await subscriber({ groupId: family, language: "de" }),
      outsider: await subscriber({}),
      notSubscribed: await subscriber({ groupId: family, subscribed: false }),
      admin: await subscriber({ admin: true }),
    };
  }

  it("mails a group's new post once to each subscriber who may read it, in their language, with the headers", async () => {
    const clock = { now: at(10) };
    const deps = await mailing(clock);
    const people = await scene();
    const post = accepted(
      await createPost(
        db(),
        testAdmin,
        {
          title: "Holiday pictures",
          title_de: "Urlaubsbilder",
          excerpt: "The lake in June",
          excerpt_de: "Der See im Juni",
          visibility: "groups",
          group_ids: people.family,
        },
        { now: at(1) },
      ),
    );
    await setPostStatus(db(), testAdmin, post.id, { status: "published" }, { now: at(2) });

    // Two runs at once (the job after the answer and the sweep, or two processes): each mail is queued once.
    const runs = await Promise.all([runAnnouncement(deps, "post", post.id), runAnnouncement(deps, "post", post.id)]);
    expect(runs[0] + runs[1]).toBe(2);
    const mails = await delivered(deps.smtp);
    expect(mails.map((mail) => mail.to[0]).sort()).toEqual([people.admin.email, people.inFamily.email].sort());

    const german = mails.find((mail) => mail.to.includes(people.inFamily.email));
    const token = unsubscribeTokenFor(SECRET, people.inFamily.id);
    expect(german?.subject).toBe("Neuer Beitrag: Urlaubsbilder");
    expect(german?.language).toBe("de");
    expect(german?.text).toContain("Der See im Juni");
    expect(german?.text).toContain(`${BASE}/blog/${post.slugDe}?lang=de`);
    const header = (name: string) => german?.headerLines.find((line) => line.key === name)?.line;
    expect(header("list-unsubscribe")).toBe(`List-Unsubscribe: <${BASE}/unsubscribe/${token}?lang=de>`);
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    const english = mails.find((mail) => mail.to.includes(people.admin.email));
    expect(english?.subject).toBe("New post: Holiday pictures");
    expect(english?.html).toContain("The lake in June");

    const decided = await db()
      .selectFrom("announcement_recipients")
      .select(["user_id", "state"])
      .where("item_id", "=", post.id)
      .execute();
    expect(Object.fromEntries(decided.map((row) => [row.user_id, row.state]))).toEqual({
      [people.inFamily.id]: "mailed",
      [people.admin.id]: "mailed",
      [people.outsider.id]: "skipped",
    });

    // Run again, taken back and published again, swept: no one is mailed a second time.
    expect(await runAnnouncement(deps, "post", post.id)).toBe(0);
    await setPostStatus(db(), testAdmin, post.id, { status: "draft" }, { now: at(3) });
    await setPostStatus(db(), testAdmin, post.id, { status: "published" }, { now: at(4) });
    const newcomer = await subscriber({ groupId: people.family });
    expect(await announceDue(deps)).toBe(0);
    expect(await runAnnouncement(deps, "post", post.id)).toBe(0);
    expect(await delivered(deps.smtp)).toHaveLength(2);
    expect(deps.smtp.mails.some((mail) => mail.to.includes(newcomer.email))).toBe(false);
  });

  it("mails a members' post to every subscribed member, and a scheduled post only once its time has come", async () => {
    const clock = { now: at(10) };
    const deps = await mailing(clock);
    const people = await scene();
    const scheduled = accepted(
      await createPost(db(), testAdmin, { title: "Later", visibility: "members" }, { now: at(1) }),
    );
    await setPostStatus(db(), testAdmin, scheduled.id, { status: "scheduled", publishAt: at(20) }, { now: at(2) });
    const draft = accepted(await createPost(db(), testAdmin, { title: "Never out" }, { now: at(1) }));

    // Not out yet: nothing is announced, nothing is written (so it is announced at its time).
    expect(await announceDue(deps)).toBe(0);
    expect(await runAnnouncement(deps, "post", scheduled.id)).toBe(0);
    expect(await runAnnouncement(deps, "post", draft.id)).toBe(0);
    expect(await db().selectFrom("announcements").select("item_id").execute()).toEqual([]);

    clock.now = at(21);
    expect(await announceDue(deps)).toBe(3);
    const mails = await delivered(deps.smtp);
    expect(mails.map((mail) => mail.to[0]).sort()).toEqual(
      [people.inFamily.email, people.outsider.email, people.admin.email].sort(),
    );
    expect(mails.some((mail) => mail.to.includes(people.notSubscribed.email))).toBe(false);
    expect(await announceDue(deps)).toBe(0);
  });

  it("skips an account that unsubscribed after the announcement began", async () => {
    const clock = { now: at(10) };
    const deps = await mailing(clock);
    const people = await scene();
    const post = accepted(await createPost(db(), testAdmin, { title: "For everyone" }, { now: at(1) }));
    await setPostStatus(db(), testAdmin, post.id, { status: "published" }, { now: at(2) });
    // The recipients are written, then one of them unsubscribes before their mail is decided.
    await db()
      .insertInto("announcements")
      .values({ kind: "post", item_id: post.id, announced_at: at(5) })
      .execute();
    await db()
      .insertInto("announcement_recipients")
      .values(
        [people.outsider.id, people.admin.id].map((user_id) => ({
          kind: "post" as const,
          item_id: post.id,
          user_id,
          state: "pending" as const,
          decided_at: null,
        })),
      )
      .execute();
    await setSubscription(db(), people.outsider, "post", false);
    expect(await runAnnouncement(deps, "post", post.id)).toBe(1);
    expect((await delivered(deps.smtp)).map((mail) => mail.to[0])).toEqual([people.admin.email]);
    const jobs = await db().selectFrom("jobs").select("kind").where("kind", "=", "mail.send").execute();
    expect(jobs).toHaveLength(1);
  });

  it("unsubscribes by a token signed for the account, and a bad token changes nothing", async () => {
    const member = await subscriber({});
    const token = unsubscribeTokenFor(SECRET, member.id);
    expect(verifyUnsubscribeToken(SECRET, token)).toBe(member.id);
    const forged = [
      `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`,
      unsubscribeTokenFor(unsubscribeSecretOf("another-secret-that-is-long-enough-0123456789"), member.id),
      token.split(".")[0] ?? "",
      "",
      "..",
    ];
    for (const bad of forged) {
      expect(verifyUnsubscribeToken(SECRET, bad)).toBeNull();
      expect(await unsubscribeByToken(db(), SECRET, bad)).toBe(false);
    }
    expect(await isSubscribed(db(), member.id, "post")).toBe(true);
    const audited = () =>
      db()
        .selectFrom("audit_log")
        .select(["actor_id", "action", "new_value"])
        .where("action", "like", "account.%subscribe")
        .orderBy("id")
        .execute();
    expect(await audited()).toEqual([{ actor_id: member.id, action: "account.subscribe", new_value: "post" }]);
    expect(await unsubscribeByToken(db(), SECRET, token)).toBe(true);
    expect(await isSubscribed(db(), member.id, "post")).toBe(false);
    // Used again (a second click): still done, and the log says it once.
    expect(await unsubscribeByToken(db(), SECRET, token)).toBe(true);
    expect((await audited()).map((row) => [row.action, row.new_value])).toEqual([
      ["account.subscribe", "post"],
      ["account.unsubscribe", "link"],
    ]);
  });
});

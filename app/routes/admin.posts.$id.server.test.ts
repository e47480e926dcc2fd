import { describe, expect, it } from "vitest";
import { getPostForAdmin } from "#app/domains/posts/post-admin.server.ts";
import { verifyPreviewLink } from "#app/domains/posts/preview-link.server.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import { useGalleryTestStorage } from "#tests/support/gallery-factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import {
  type EditorResult,
  loadPostEditor,
  NEW_POST,
  type PostFormValues,
  runEditorAction,
  scheduledMoment,
} from "./admin.posts.$id.server.ts";

const en = adminTranslatorFor("en");
const de = adminTranslatorFor("de");
const NOW = new Date("2026-03-28T10:00:00.000Z");
const SECRET = "preview-secret-for-tests";

const form = (fields: Partial<PostFormValues> & Record<string, string>) => ({
  title: "",
  title_de: "",
  slug: "",
  slug_de: "",
  excerpt: "",
  excerpt_de: "",
  body: "",
  body_de: "",
  cover_image_id: "",
  cover_alt: "",
  cover_alt_de: "",
  tags: "",
  ...fields,
});

function okId(result: EditorResult): string {
  if (!result.ok || !result.id) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.id;
}

describe("the schedule picker's time on the server", () => {
  it("reads the picker in the admin's zone, refuses skipped and past times", () => {
    const berlin = scheduledMoment("2026-03-29T09:00", "Europe/Berlin", NOW);
    expect(berlin.ok && berlin.moment.toISOString()).toBe("2026-03-29T07:00:00.000Z"); // the first day of summer time
    const before = scheduledMoment("2026-03-29T01:30", "Europe/Berlin", NOW);
    expect(before.ok && before.moment.toISOString()).toBe("2026-03-29T00:30:00.000Z");
    expect(scheduledMoment("2026-03-29T02:30", "Europe/Berlin", NOW)).toEqual({
      ok: false,
      error: "admin.posts.error.publishAtSkipped",
    });
    expect(scheduledMoment("2026-03-28T10:59", "Europe/Berlin", NOW)).toEqual({
      ok: false,
      error: "admin.posts.error.publishAtPast",
    });
    expect(scheduledMoment("", "Europe/Berlin", NOW)).toEqual({ ok: false, error: "admin.posts.error.publishAt" });
    // No zone (a browser without JavaScript) or a made-up one: the time is read as UTC.
    const utc = scheduledMoment("2026-03-29T09:00", "", NOW);
    expect(utc.ok && utc.moment.toISOString()).toBe("2026-03-29T09:00:00.000Z");
    const unknown = scheduledMoment("2026-03-29T09:00", "Nowhere/Atlantis", NOW);
    expect(unknown.ok && unknown.moment.toISOString()).toBe("2026-03-29T09:00:00.000Z");
  });
});

describe.each(databaseKinds)("the post editor's server side (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const db = () => database.db;
  const files = useGalleryTestStorage(db);
  const run = (id: string, fields: Record<string, string>, t = en, now = NOW) =>
    runEditorAction(db(), testAdmin, id, fields, { t, now, storage: files.storage });
  const postCount = async () =>
    Number(
      (
        await db()
          .selectFrom("posts")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("writes a new draft and sends the form to its own address", async () => {
    const result = await run(NEW_POST, form({ intent: "save", title: "Hello", title_de: "Hallo", body: "# Hi" }));
    const id = okId(result);
    expect(result).toMatchObject({
      ok: true,
      intent: "save",
      message: "Saved.",
      redirectTo: `/admin/posts/${id}?done=save`,
    });
    const post = await getPostForAdmin(db(), id);
    expect(post).toMatchObject({ status: "draft", slug: "hello", slugDe: "hallo", body: "# Hi" });
  });

  it("answers field errors in the admin's language and keeps what was sent", async () => {
    const refused = await run(NEW_POST, form({ intent: "save", title: "", slug: "Not a slug!" }), de);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.message).toBe("Nicht gespeichert. Prüfen Sie die markierten Felder.");
    expect(refused.fieldErrors.title).toBeTruthy();
    expect(refused.fieldErrors.slug).toContain("Kleinbuchstaben");
    expect(refused.values?.slug).toBe("Not a slug!");
    expect(await postCount()).toBe(0);
    const badTags = await run(NEW_POST, form({ intent: "save", title: "T", tags: "ok, <script>" }));
    expect(!badTags.ok && badTags.fieldErrors.tags).toBe(
      "A tag holds letters, digits, spaces and - _ . + # and at most 40 characters.",
    );
    expect(await postCount()).toBe(0);
  });

  it("refuses an unknown intent or post without writing", async () => {
    expect(await run(NEW_POST, form({ intent: "explode", title: "T" }))).toMatchObject({ ok: false });
    expect(await run("no-such-post", form({ intent: "save", title: "T" }))).toMatchObject({
      ok: false,
      message: "This post does not exist (any more).",
      notFound: true,
    });
    expect(await run("../etc", form({ intent: "delete" }))).toMatchObject({ ok: false });
    expect(await postCount()).toBe(0);
  });

  it("walks a post through draft → scheduled → published → draft, each step audited", async () => {
    const id = okId(await run(NEW_POST, form({ intent: "save", title: "Walk" })));
    const scheduled = await run(
      id,
      form({ intent: "schedule", title: "Walk", publish_local: "2026-03-29T09:00", time_zone: "Europe/Berlin" }),
    );
    expect(scheduled).toMatchObject({ ok: true, message: "Scheduled." });
    expect(await getPostForAdmin(db(), id, { now: NOW })).toMatchObject({
      status: "scheduled",
      publishAt: "2026-03-29T07:00:00.000Z",
      visible: false,
    });
    expect(await run(id, form({ intent: "publish", title: "Walk" }))).toMatchObject({
      ok: true,
      message: "Published.",
    });
    expect(await getPostForAdmin(db(), id, { now: NOW })).toMatchObject({ status: "published", visible: true });
    expect(await run(id, form({ intent: "unpublish", title: "Walk" }))).toMatchObject({ ok: true });
    expect(await getPostForAdmin(db(), id, { now: NOW })).toMatchObject({ status: "draft", visible: false });
    const actions = (await db().selectFrom("audit_log").select("action").orderBy("id").execute()).map((r) => r.action);
    expect(actions).toEqual([
      "posts.create",
      "posts.update",
      "posts.schedule",
      "posts.update",
      "posts.publish",
      "posts.update",
      "posts.unpublish",
    ]);
  });

  it("refuses a schedule in the past or in the skipped hour before writing anything", async () => {
    const past = await run(
      NEW_POST,
      form({ intent: "schedule", title: "Late", publish_local: "2026-03-01T09:00", time_zone: "Europe/Berlin" }),
    );
    expect(!past.ok && past.fieldErrors.publishAt).toBe(
      "A scheduled post needs a time in the future. To publish now, choose “Publish”.",
    );
    const skipped = await run(
      NEW_POST,
      form({ intent: "schedule", title: "Gap", publish_local: "2026-03-29T02:30", time_zone: "Europe/Berlin" }),
      de,
    );
    expect(!skipped.ok && skipped.fieldErrors.publishAt).toContain("gibt es in Ihrer Zeitzone nicht");
    expect(await postCount()).toBe(0);
  });

  it("autosaves drafts only: a new one once, then the same post; never a post visitors see", async () => {
    const first = await run(NEW_POST, form({ intent: "autosave", title: "Draft", body: "one" }));
    const id = okId(first);
    expect(first.ok && first.redirectTo).toBeNull();
    // The editor's address still says "new"; the form names the draft it wrote.
    okId(await run(NEW_POST, form({ intent: "autosave", post_id: id, title: "Draft", body: "one two" })));
    expect(await postCount()).toBe(1);
    expect((await getPostForAdmin(db(), id))?.body).toBe("one two");
    // A button pressed in that editor saves the same post and goes on at its own address.
    expect(await run(NEW_POST, form({ intent: "save", post_id: id, title: "Draft", body: "one two" }))).toMatchObject({
      ok: true,
      redirectTo: `/admin/posts/${id}?done=save`,
    });
    expect(await postCount()).toBe(1);
    await run(id, form({ intent: "publish", title: "Draft", body: "one two" }));
    const refused = await run(
      NEW_POST,
      form({ intent: "autosave", post_id: id, title: "Draft", body: "half-written" }),
    );
    expect(refused).toMatchObject({
      ok: false,
      message: "Only drafts are saved automatically; save this post yourself.",
    });
    expect((await getPostForAdmin(db(), id))?.body).toBe("one two");
  });

  it("records a run of autosaves as one audit entry, from the text before the first to the text after the last", async () => {
    const updates = async () =>
      db()
        .selectFrom("audit_log")
        .select(["old_value", "new_value"])
        .where("action", "=", "posts.update")
        .orderBy("id")
        .execute();
    const id = okId(await run(NEW_POST, form({ intent: "save", title: "Notes", body: "a" })));
    const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
    for (const [minute, body] of [
      [1, "a b"],
      [2, "a b c"],
      [4, "a b c d"],
    ] as const) {
      okId(await run(id, form({ intent: "autosave", post_id: id, title: "Notes", body }), en, later(minute)));
    }
    let entries = await updates();
    expect(entries).toHaveLength(1);
    expect(JSON.parse(entries[0]?.old_value ?? "{}")).toMatchObject({ body: "a" });
    expect(JSON.parse(entries[0]?.new_value ?? "{}")).toMatchObject({ body: "a b c d" });
    // A save by hand is its own entry and ends the run; so does a pause longer than ten minutes.
    okId(await run(id, form({ intent: "save", title: "Notes", body: "a b c d e" }), en, later(5)));
    okId(await run(id, form({ intent: "autosave", post_id: id, title: "Notes", body: "f" }), en, later(6)));
    okId(await run(id, form({ intent: "autosave", post_id: id, title: "Notes", body: "g" }), en, later(30)));
    entries = await updates();
    expect(entries.map((entry) => JSON.parse(entry.new_value ?? "{}").body)).toEqual([
      "a b c d",
      "a b c d e",
      "f",
      "g",
    ]);
  });

  it("deletes, then the post is gone and the list is next", async () => {
    const id = okId(await run(NEW_POST, form({ intent: "save", title: "Gone soon" })));
    expect(await run(id, { intent: "delete" })).toMatchObject({ ok: true, redirectTo: "/admin/posts?done=delete" });
    expect(await getPostForAdmin(db(), id)).toBeNull();
    expect(await run(id, { intent: "delete" })).toMatchObject({ ok: false });
  });

  it("loads the editor with the stored values, the tags in use and signed preview links", async () => {
    const id = okId(await run(NEW_POST, form({ intent: "save", title: "Tagged", tags: "Travel, food" })));
    await run(NEW_POST, form({ intent: "save", title: "Other", tags: "travel, code" }));
    const editor = await loadPostEditor(db(), id, { previewSecret: SECRET, now: NOW });
    expect(editor?.values).toMatchObject({ title: "Tagged", slug: "tagged", tags: "food, travel" });
    expect(editor?.knownTags).toEqual(["code", "food", "travel"]);
    const link = new URL(editor?.previewLinks?.de ?? "", "http://site.test");
    expect(link.searchParams.get("lang")).toBe("de");
    expect(verifyPreviewLink(link.searchParams, { secret: SECRET, now: NOW })?.postId).toBe(id);
    expect(await loadPostEditor(db(), NEW_POST, { previewSecret: SECRET })).toMatchObject({
      post: null,
      previewLinks: null,
    });
    expect(await loadPostEditor(db(), "missing", { previewSecret: SECRET })).toBeNull();
    expect(await loadPostEditor(db(), "%00", { previewSecret: SECRET })).toBeNull();
  });

  it("refuses a save over a post saved elsewhere since the editor's text was loaded, and says what is stored", async () => {
    const id = okId(await run(NEW_POST, form({ intent: "save", title: "Shared", body: "First" })));
    const opened = (await getPostForAdmin(db(), id))?.updatedAt ?? "";
    const { image_id: coverId } = await db()
      .selectFrom("gallery_images")
      .select("image_id")
      .where("id", "=", await files.add({ title: "Cover" }))
      .executeTakeFirstOrThrow();
    // Two editors opened the post at `opened`; the first saves a minute later, with a cover.
    const later = new Date(NOW.getTime() + 60_000);
    const first = await run(
      id,
      form({ intent: "save", title: "Shared", body: "Theirs", cover_image_id: coverId, base_updated_at: opened }),
      en,
      later,
    );
    expect(first).toMatchObject({ ok: true });
    const theirsAt = first.ok ? first.updatedAt : null;
    expect(theirsAt).not.toBe(opened);

    // The second, still based on `opened`, is refused (a save and an autosave alike): nothing of it is written.
    const evenLater = new Date(NOW.getTime() + 120_000);
    for (const intent of ["save", "autosave", "publish"]) {
      const second = await run(
        intent === "autosave" ? NEW_POST : id,
        form({ intent, post_id: id, title: "Shared", body: "Mine", base_updated_at: opened }),
        en,
        evenLater,
      );
      expect(second).toMatchObject({
        ok: false,
        message: "Not saved: this post was saved elsewhere meanwhile. Choose whose text stays.",
        values: { body: "Mine" },
        conflict: { updatedAt: theirsAt, values: { body: "Theirs", title: "Shared", cover_image_id: coverId } },
      });
      // Their cover as the picker shows it: taking theirs shows their picture, not the one this editor had.
      expect(second.ok === false && second.conflict?.cover?.id).toBe(coverId);
      expect(await getPostForAdmin(db(), id)).toMatchObject({ body: "Theirs", status: "draft" });
    }

    // "Keep mine": the editor names what it has now seen, and its save replaces theirs.
    const kept = await run(
      id,
      form({ intent: "save", title: "Shared", body: "Mine", base_updated_at: theirsAt ?? "" }),
      en,
      evenLater,
    );
    expect(kept).toMatchObject({ ok: true });
    expect(await getPostForAdmin(db(), id)).toMatchObject({ body: "Mine" });
    // A save naming no base (a script) is not checked.
    expect(await run(id, form({ intent: "save", title: "Shared", body: "Script" }))).toMatchObject({ ok: true });
  });
});

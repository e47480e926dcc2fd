import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { createPost, deletePost } from "#app/domains/posts/post-admin.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import {
  checkSharePassword,
  createShareLink,
  listShareLinks,
  noteShareUse,
  openShareLink,
  revokeShareLink,
  SHARE_UNLOCK_MS,
  shareSecretOf,
  signShareUnlock,
  verifyShareUnlock,
} from "./share-links.server.ts";

const T0 = new Date("2026-06-01T10:00:00.000Z");

describe.each(databaseKinds)("share links (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const db = () => database.db;

  async function scene() {
    const admin = await createUser(db(), { admin: true });
    const actor = { id: admin.id, email: admin.email };
    const post = await createPost(db(), actor, { title: "Harbour walk" });
    if (!post.ok) throw new Error("refused");
    const make = async (fields: Record<string, unknown>, now = T0) => {
      const made = await createShareLink(
        db(),
        actor,
        { kind: "post", itemId: post.id, target: "Harbour walk", fields },
        now,
      );
      if (!made.ok) throw new Error(`refused: ${JSON.stringify(made)}`);
      return { ...made, token: made.path.slice("/s/".length) };
    };
    return { admin, actor, postId: post.id, make };
  }

  it("opens by its token only, keeps only the token's hash, and lists each link with its state", async () => {
    const { postId, make } = await scene();
    const link = await make({});
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await openShareLink(db(), link.token, T0)).toMatchObject({
      id: link.id,
      itemId: postId,
      hasPassword: false,
    });
    expect(await openShareLink(db(), `${link.token.slice(0, -1)}x`, T0)).toBeNull();
    const rows = await db().selectFrom("share_links").selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(link.token);
    expect(await listShareLinks(db(), "post", postId, T0)).toEqual([
      expect.objectContaining({ id: link.id, active: true, hasPassword: false, expiresAt: null, lastUsedAt: null }),
    ]);
    await noteShareUse(db(), link.id, T0);
    expect((await listShareLinks(db(), "post", postId, T0))[0]?.lastUsedAt).toBe(T0.toISOString());
    const [entry] = (await listAudit(db(), { action: "posts.share" })).records;
    expect(JSON.parse(entry?.newValue ?? "{}")).toEqual({ expires: "–", password: "–" });
  });

  it("stops at the end of its last day, and at once when revoked", async () => {
    const { actor, postId, make } = await scene();
    const dated = await make({ expires_on: "2026-06-02" });
    expect(await openShareLink(db(), dated.token, new Date("2026-06-02T23:59:00Z"))).not.toBeNull();
    expect(await openShareLink(db(), dated.token, new Date("2026-06-03T00:00:00Z"))).toBeNull();
    const open = await make({});
    const revoke = () =>
      revokeShareLink(db(), actor, { kind: "post", itemId: postId, id: open.id, target: "Harbour walk" });
    expect(await revoke()).toBe(true);
    expect(await openShareLink(db(), open.token, T0)).toBeNull();
    expect(await revoke()).toBe(false);
    const states = (await listShareLinks(db(), "post", postId, new Date("2026-06-05T00:00:00Z"))).map(
      (link) => link.active,
    );
    expect(states).toEqual([false, false]);
  });

  it("refuses a day that is over, a short password and a date that is not one, writing nothing", async () => {
    const { actor, postId } = await scene();
    for (const [fields, field] of [
      [{ expires_on: "2026-05-31" }, "expires_on"],
      [{ expires_on: "31.12.2026" }, "expires_on"],
      [{ password: "short" }, "password"],
    ] as const) {
      const made = await createShareLink(db(), actor, { kind: "post", itemId: postId, target: "x", fields }, T0);
      expect(made.ok, field).toBe(false);
      if (!made.ok && made.reason === "invalid") expect(Object.keys(made.fieldErrors)).toEqual([field]);
    }
    expect(await db().selectFrom("share_links").selectAll().execute()).toEqual([]);
  });

  it("goes with its post", async () => {
    const { actor, postId, make } = await scene();
    const link = await make({});
    expect((await deletePost(db(), actor, postId)).ok).toBe(true);
    expect(await openShareLink(db(), link.token, T0)).toBeNull();
    expect(await db().selectFrom("share_links").selectAll().execute()).toEqual([]);
  });

  it("asks its password, and keeps working when the admin who made it is deleted", async () => {
    const { admin, make } = await scene();
    const locked = await make({ password: "lighthouse" });
    const share = await openShareLink(db(), locked.token, T0);
    if (!share) throw new Error("not opened");
    expect(share.hasPassword).toBe(true);
    expect(await checkSharePassword(share, "lighthouse")).toBe(true);
    expect(await checkSharePassword(share, "Lighthouse")).toBe(false);
    await db().deleteFrom("user").where("id", "=", admin.id).execute();
    expect(await openShareLink(db(), locked.token, T0)).not.toBeNull();
  });
});

describe("a share link's unlock cookie", () => {
  const secret = shareSecretOf("x".repeat(40));
  it("holds for its link until it expires, and for no other", () => {
    const value = signShareUnlock(secret, "link-1", T0);
    expect(verifyShareUnlock(secret, "link-1", value, T0)).toBe(true);
    expect(verifyShareUnlock(secret, "link-2", value, T0)).toBe(false);
    expect(verifyShareUnlock(shareSecretOf("y".repeat(40)), "link-1", value, T0)).toBe(false);
    expect(verifyShareUnlock(secret, "link-1", value, new Date(T0.getTime() + SHARE_UNLOCK_MS + 1))).toBe(false);
    expect(verifyShareUnlock(secret, "link-1", undefined, T0)).toBe(false);
    expect(verifyShareUnlock(secret, "link-1", "1.x", T0)).toBe(false);
  });
});

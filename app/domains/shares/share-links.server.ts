import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database, ShareLinksTable } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { fieldErrorsOf } from "#app/lib/field-errors.ts";
import { createSecretToken, hashSecretToken } from "#app/lib/secret-token.server.ts";
import { type ShareLinkSummary, shareLinkSchema } from "./share-schema.ts";

export type { ShareLinkSummary };

/*
 * Share links (issue 21): one post or album shown to whoever holds the link, without an account, optionally until a day and
 * behind a password, revocable at any time. The link carries a token of 256 random bits; the database keeps its
 * SHA-256 only, so the admin sees a new link once (to copy) and a list of the links with when each was last used.
 * A link belongs to its content, not to the admin who made it: deleting that account leaves it working.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** What a link may show: one post, or one album. */
export type ShareKind = "post" | "album";

/** Each kind's table, and the area of its audit entries (`posts.share`, `albums.unshare`, …). */
const KINDS = {
  post: { table: "posts", area: "posts" },
  album: { table: "albums", area: "albums" },
} as const satisfies Record<ShareKind, { table: "posts" | "albums"; area: string }>;

/** The share page's address: `/s/<token>`. */
export const SHARE_PATH = "/s/";
/** A token as made here: 43 characters of base64url. */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** The last use is written at most this often per link (every view would be a write). */
const USE_NOTE_STEP_MS = 60_000;

export type ShareCreateResult =
  | { ok: true; id: string; path: string }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string> }
  | { ok: false; reason: "not-found" };

function isActive(row: Pick<ShareLinksTable, "revoked_at" | "expires_at">, now: Date): boolean {
  return row.revoked_at === null && (row.expires_at === null || new Date(toIsoString(row.expires_at)) > now);
}

/** Makes a link to post or album `itemId`; its path (with the token) is answered once. */
export async function createShareLink(
  db: Kysely<Database>,
  actor: AuditActor,
  input: { kind: ShareKind; itemId: string; target: string; fields: Record<string, unknown> },
  now = new Date(),
): Promise<ShareCreateResult> {
  const parsed = shareLinkSchema.safeParse(input.fields);
  if (!parsed.success) return { ok: false, reason: "invalid", fieldErrors: fieldErrorsOf(parsed.error) };
  const { expires_on: expiresOn, password } = parsed.data;
  const expiresAt = expiresOn === "" ? null : new Date(`${expiresOn}T23:59:59.999Z`);
  if (expiresAt !== null && expiresAt <= now) {
    return { ok: false, reason: "invalid", fieldErrors: { expires_on: "admin.shares.error.expiresPast" } };
  }
  const { token, hash } = createSecretToken();
  const passwordHash = password === "" ? null : await hashPassword(password);
  const id = randomUUID();
  const made = await db.transaction().execute(async (trx) => {
    const item = await trx
      .selectFrom(KINDS[input.kind].table)
      .select("id")
      .where("id", "=", input.itemId)
      .executeTakeFirst();
    if (!item) return false;
    await trx
      .insertInto("share_links")
      .values({
        id,
        kind: input.kind,
        item_id: input.itemId,
        token_hash: hash,
        password_hash: passwordHash,
        expires_at: expiresAt,
        created_by: actor.id,
        created_at: now,
        revoked_at: null,
        last_used_at: null,
      })
      .execute();
    await recordAudit(trx, actor, {
      action: `${KINDS[input.kind].area}.share`,
      target: input.target,
      newValue: JSON.stringify({
        expires: expiresOn || "–",
        password: passwordHash ? "✓" : "–",
      }),
    });
    return true;
  });
  if (!made) return { ok: false, reason: "not-found" };
  return { ok: true, id, path: `${SHARE_PATH}${token}` };
}

/** The links of one item, newest first. */
export async function listShareLinks(
  db: Db,
  kind: ShareKind,
  itemId: string,
  now = new Date(),
): Promise<ShareLinkSummary[]> {
  const rows = await db
    .selectFrom("share_links")
    .selectAll()
    .where("kind", "=", kind)
    .where("item_id", "=", itemId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  const iso = (value: ShareLinksTable["expires_at"]) => (value === null ? null : toIsoString(value));
  return rows.map((row) => ({
    id: row.id,
    createdAt: toIsoString(row.created_at),
    expiresAt: iso(row.expires_at),
    hasPassword: row.password_hash !== null,
    revokedAt: iso(row.revoked_at),
    lastUsedAt: iso(row.last_used_at),
    active: isActive(row, now),
  }));
}

/** Revokes link `id` of the item: it stops working at once. False when there is no such link of that item. */
export async function revokeShareLink(
  db: Kysely<Database>,
  actor: AuditActor,
  input: { kind: ShareKind; itemId: string; id: string; target: string },
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const revoked = await trx
      .updateTable("share_links")
      .set({ revoked_at: now })
      .where("id", "=", input.id)
      .where("kind", "=", input.kind)
      .where("item_id", "=", input.itemId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (Number(revoked.numUpdatedRows) === 0) return false;
    await recordAudit(trx, actor, { action: `${KINDS[input.kind].area}.unshare`, target: input.target });
    return true;
  });
}

export type OpenShare = {
  id: string;
  kind: ShareKind;
  itemId: string;
  hasPassword: boolean;
  passwordHash: string | null;
};

/** The link a token opens now (neither revoked nor expired), or null: an unknown, revoked or expired one alike. */
export async function openShareLink(db: Db, token: string, now = new Date()): Promise<OpenShare | null> {
  if (!SHARE_TOKEN.test(token)) return null;
  const row = await db
    .selectFrom("share_links")
    .selectAll()
    .where("token_hash", "=", hashSecretToken(token))
    .executeTakeFirst();
  if (!row || !isActive(row, now)) return null;
  return {
    id: row.id,
    kind: row.kind,
    itemId: row.item_id,
    hasPassword: row.password_hash !== null,
    passwordHash: row.password_hash,
  };
}

export function checkSharePassword(share: OpenShare, password: string): Promise<boolean> {
  if (share.passwordHash === null) return Promise.resolve(true);
  return verifyPassword({ hash: share.passwordHash, password });
}

/** Notes that the link was used now (at most once a minute per link). */
export async function noteShareUse(db: Kysely<Database>, id: string, now = new Date()): Promise<void> {
  await db
    .updateTable("share_links")
    .set({ last_used_at: now })
    .where("id", "=", id)
    .where((eb) =>
      eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", new Date(now.getTime() - USE_NOTE_STEP_MS))]),
    )
    .execute();
}

/** The key of the cookie a right password gives, derived from the auth secret (never the secret itself). */
export function shareSecretOf(authSecret: string): string {
  return createHmac("sha256", authSecret).update("vitrine share link").digest("base64url");
}

/** How long a right password is remembered by the browser that gave it. */
export const SHARE_UNLOCK_MS = 12 * 60 * 60_000;

function unlockSignature(secret: string, shareId: string, expires: number): string {
  return createHmac("sha256", secret).update(`share-unlock\n${shareId}\n${expires}`).digest("base64url");
}

/** The cookie value that says "this browser gave link `shareId`'s password", until SHARE_UNLOCK_MS from now. */
export function signShareUnlock(secret: string, shareId: string, now = new Date()): string {
  const expires = now.getTime() + SHARE_UNLOCK_MS;
  return `${expires}.${unlockSignature(secret, shareId, expires)}`;
}

export function verifyShareUnlock(
  secret: string,
  shareId: string,
  value: string | undefined,
  now = new Date(),
): boolean {
  const [expiresText = "", signature = ""] = (value ?? "").split(".");
  if (!/^\d{1,15}$/.test(expiresText) || Number(expiresText) <= now.getTime()) return false;
  const expected = Buffer.from(unlockSignature(secret, shareId, Number(expiresText)));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A shared album's restricted pictures are files under /media/members/ (issue 21): the share page gives its holder a
 * cookie for them (Path=/media/members/, one per link), checked with the link itself at every file request, so that
 * revoking the link or its expiry takes the files away at once. Its value: `<expires>.<signature>`.
 */
export const shareFilesCookieName = (shareId: string) => `share_files_${shareId.replaceAll("-", "")}`;

function filesSignature(secret: string, shareId: string, expires: number): string {
  return createHmac("sha256", secret).update(`share-files\n${shareId}\n${expires}`).digest("base64url");
}

export function signShareFiles(secret: string, shareId: string, now = new Date()): string {
  const expires = now.getTime() + SHARE_UNLOCK_MS;
  return `${expires}.${filesSignature(secret, shareId, expires)}`;
}

/** The ids of the links whose files' cookies in `cookies` (name → value) are signed and not expired. */
export function sharesOfFileCookies(secret: string, cookies: Record<string, string>, now = new Date()): string[] {
  const ids: string[] = [];
  for (const [name, value] of Object.entries(cookies)) {
    const match = /^share_files_([0-9a-f]{32})$/.exec(name);
    if (!match?.[1]) continue;
    const hex = match[1];
    const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    const [expiresText = "", signature = ""] = value.split(".");
    if (!/^\d{1,15}$/.test(expiresText) || Number(expiresText) <= now.getTime()) continue;
    const expected = Buffer.from(filesSignature(secret, id, Number(expiresText)));
    const given = Buffer.from(signature);
    if (given.length === expected.length && timingSafeEqual(given, expected)) ids.push(id);
  }
  return ids.slice(0, 20);
}

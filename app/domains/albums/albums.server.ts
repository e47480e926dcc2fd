import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { nextSortOrder, ReorderError, reorderRows } from "#app/db/ordering.server.ts";
import type { Database } from "#app/db/schema.ts";
import {
  describeAccess,
  type ItemAccess,
  resolveAccess,
  storedAccess,
  writeItemGroups,
} from "#app/domains/access/access.server.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { slugify } from "#app/domains/posts/post-schema.ts";
import { ALBUM_ACCESS_ERRORS, type AlbumFields } from "./album-schema.ts";

/*
 * The admin's writes of albums (issue 21): each with its audit entry in the same transaction, so a refused or failed
 * write leaves neither. Who may see an album is the access rule's (app/domains/access/); its pictures stay gallery
 * pictures: an album only names them, in its own order.
 */

type Db = Kysely<Database>;

/**
 * Why a write was refused: `notFound` the album is gone; `pictureNotFound` a named picture is not in the gallery (or
 * not in the album); `stale` an order that does not name the album's pictures as they are now.
 */
export type AlbumRefusal = "notFound" | "pictureNotFound" | "stale";
export type AlbumWrite =
  | { ok: true; id: string; title: string; changed: boolean }
  | { ok: false; reason: AlbumRefusal }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string> };

const refused = (reason: AlbumRefusal): AlbumWrite => ({ ok: false, reason });

/** Whether another album already uses `slug` in either language. */
async function slugTaken(trx: Transaction<Database>, slug: string, exceptId: string | null): Promise<boolean> {
  let query = trx
    .selectFrom("albums")
    .select("id")
    .where((eb) => eb.or([eb("slug", "=", slug), eb("slug_de", "=", slug)]));
  if (exceptId) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * The slugs a save stores: one typed is kept as typed (refused when another album has it); an empty one is made from
 * the title (the German from the German title, else the English slug's), numbered when taken. The English and the
 * German slug may be the same; two albums never share one.
 */
async function chooseAlbumSlugs(
  trx: Transaction<Database>,
  fields: AlbumFields,
  exceptId: string | null,
): Promise<{ ok: true; slug: string; slugDe: string } | { ok: false; fieldErrors: Record<string, string> }> {
  const fieldErrors: Record<string, string> = {};
  const pick = async (typed: string, base: string, field: string, also: string | null) => {
    if (typed !== "") {
      if (await slugTaken(trx, typed, exceptId)) fieldErrors[field] = "admin.albums.error.slugTaken";
      return typed;
    }
    const stem = slugify(base) || "album";
    if (stem === also) return stem;
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? stem : `${stem}-${n}`;
      if (!(await slugTaken(trx, candidate, exceptId))) return candidate;
    }
  };
  const slug = await pick(fields.slug, fields.title, "slug", null);
  const slugDe = await pick(fields.slug_de, fields.title_de || fields.title, "slug_de", slug);
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return { ok: true, slug, slugDe };
}

/**
 * The album's texts, slugs and readers from the form, checked the same way for a new album (`id` null, no readers
 * stored) and an edited one: answers the row's values and the readers, or the fields' errors.
 */
async function albumFromFields(
  trx: Transaction<Database>,
  fields: AlbumFields,
  stored: ItemAccess | null,
  id: string | null,
) {
  const access = await resolveAccess(trx, fields, stored, ALBUM_ACCESS_ERRORS);
  if (!access.ok) return { ok: false, reason: "invalid", fieldErrors: access.fieldErrors } as const;
  const slugs = await chooseAlbumSlugs(trx, fields, id);
  if (!slugs.ok) return { ok: false, reason: "invalid", fieldErrors: slugs.fieldErrors } as const;
  const values = {
    slug: slugs.slug,
    slug_de: slugs.slugDe,
    title: fields.title,
    title_de: fields.title_de,
    description: fields.description,
    description_de: fields.description_de,
    visibility: access.access.visibility,
  };
  return { ok: true, values, access: access.access } as const;
}

/** A new album, last in the albums' order, with no pictures yet. */
export async function createAlbum(
  db: Db,
  actor: AuditActor,
  fields: AlbumFields,
  now = new Date(),
): Promise<AlbumWrite> {
  return db.transaction().execute(async (trx) => {
    const album = await albumFromFields(trx, fields, null, null);
    if (!album.ok) return album;
    const id = randomUUID();
    await trx
      .insertInto("albums")
      .values({
        id,
        ...album.values,
        cover_picture_id: null,
        sort_order: await nextSortOrder(trx, "albums"),
        created_at: now,
        updated_at: now,
      })
      .execute();
    await writeItemGroups(trx, "album", id, album.access.groupIds);
    await recordAudit(trx, actor, {
      action: "albums.create",
      target: fields.title,
      newValue: await describeAccess(trx, album.access),
    });
    return { ok: true, id, title: fields.title, changed: true };
  });
}

/** An album's texts and who may see it. */
export async function updateAlbum(
  db: Db,
  actor: AuditActor,
  id: string,
  fields: AlbumFields,
  now = new Date(),
): Promise<AlbumWrite> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("albums").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return refused("notFound");
    const before = await storedAccess(trx, "album", id, row.visibility);
    const album = await albumFromFields(trx, fields, before, id);
    if (!album.ok) return album;
    const next = album.values;
    const oldAccess = await describeAccess(trx, before);
    const newAccess = await describeAccess(trx, album.access);
    const changedKeys = (Object.keys(next) as (keyof typeof next)[]).filter((key) => row[key] !== next[key]);
    if (changedKeys.length === 0 && oldAccess === newAccess) return { ok: true, id, title: row.title, changed: false };
    await trx
      .updateTable("albums")
      .set({ ...next, updated_at: now })
      .where("id", "=", id)
      .execute();
    await writeItemGroups(trx, "album", id, album.access.groupIds);
    const entries = changedKeys
      .filter((key) => key !== "visibility")
      .map((key) => ({
        action: "albums.update",
        target: fields.title,
        oldValue: `${key}: ${row[key]}`,
        newValue: `${key}: ${next[key]}`,
      }));
    if (oldAccess !== newAccess) {
      entries.push({ action: "albums.access", target: fields.title, oldValue: oldAccess, newValue: newAccess });
    }
    await recordAudit(trx, actor, entries);
    return { ok: true, id, title: fields.title, changed: true };
  });
}

/** Deletes an album; its pictures stay in the gallery. */
export async function deleteAlbum(db: Db, actor: AuditActor, id: string): Promise<AlbumWrite> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("albums").select(["title"]).where("id", "=", id).executeTakeFirst();
    if (!row) return refused("notFound");
    await trx.deleteFrom("albums").where("id", "=", id).execute();
    await trx.deleteFrom("content_groups").where("kind", "=", "album").where("item_id", "=", id).execute();
    // Its share links open nothing any more: they go with it.
    await trx.deleteFrom("share_links").where("kind", "=", "album").where("item_id", "=", id).execute();
    await recordAudit(trx, actor, { action: "albums.delete", target: row.title });
    return { ok: true, id, title: row.title, changed: true };
  });
}

/** The albums' order on /albums: `ids` must name every album once. */
export async function reorderAlbums(db: Db, actor: AuditActor, ids: string[]): Promise<AlbumWrite> {
  try {
    await db.transaction().execute(async (trx) => {
      await reorderRows(trx, "albums", ids);
      await recordAudit(trx, actor, { action: "albums.reorder", target: `${ids.length}` });
    });
    return { ok: true, id: "", title: "", changed: true };
  } catch (error) {
    if (error instanceof ReorderError) return refused("stale");
    throw error;
  }
}

async function albumTitle(trx: Transaction<Database>, id: string): Promise<string | undefined> {
  const row = await trx.selectFrom("albums").select("title").where("id", "=", id).executeTakeFirst();
  return row?.title;
}

/** Adds gallery pictures at the album's end, in the order given; pictures already in it stay where they are. */
export async function addAlbumPictures(
  db: Db,
  actor: AuditActor,
  albumId: string,
  pictureIds: readonly string[],
  now = new Date(),
): Promise<AlbumWrite & { added?: number }> {
  return db.transaction().execute(async (trx) => {
    const title = await albumTitle(trx, albumId);
    if (title === undefined) return refused("notFound");
    const wanted = [...new Set(pictureIds)];
    if (wanted.length === 0) return { ok: true, id: albumId, title, changed: false, added: 0 };
    const known = await trx.selectFrom("gallery_images").select("id").where("id", "in", wanted).execute();
    if (known.length !== wanted.length) return refused("pictureNotFound");
    const present = await trx
      .selectFrom("album_pictures")
      .select(["picture_id", "sort_order"])
      .where("album_id", "=", albumId)
      .execute();
    const inAlbum = new Set(present.map((row) => row.picture_id));
    const fresh = wanted.filter((id) => !inAlbum.has(id));
    let next = present.reduce((max, row) => Math.max(max, Number(row.sort_order) + 1), 0);
    if (fresh.length > 0) {
      await trx
        .insertInto("album_pictures")
        .values(
          fresh.map((pictureId) => ({ album_id: albumId, picture_id: pictureId, sort_order: next++, added_at: now })),
        )
        .execute();
      await trx.updateTable("albums").set({ updated_at: now }).where("id", "=", albumId).execute();
      await recordAudit(trx, actor, { action: "albums.addPictures", target: title, newValue: `${fresh.length}` });
    }
    return { ok: true, id: albumId, title, changed: fresh.length > 0, added: fresh.length };
  });
}

/** Takes a picture out of an album (it stays in the gallery); a cover taken out leaves the album without one. */
export async function removeAlbumPicture(
  db: Db,
  actor: AuditActor,
  albumId: string,
  pictureId: string,
  now = new Date(),
): Promise<AlbumWrite> {
  return db.transaction().execute(async (trx) => {
    const title = await albumTitle(trx, albumId);
    if (title === undefined) return refused("notFound");
    const removed = await trx
      .deleteFrom("album_pictures")
      .where("album_id", "=", albumId)
      .where("picture_id", "=", pictureId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return refused("pictureNotFound");
    await trx
      .updateTable("albums")
      .set((eb) => ({
        updated_at: now,
        cover_picture_id: eb
          .case()
          .when("cover_picture_id", "=", pictureId)
          .then(null)
          .else(eb.ref("cover_picture_id"))
          .end(),
      }))
      .where("id", "=", albumId)
      .execute();
    const picture = await trx
      .selectFrom("gallery_images")
      .select("title")
      .where("id", "=", pictureId)
      .executeTakeFirst();
    await recordAudit(trx, actor, {
      action: "albums.removePicture",
      target: title,
      oldValue: picture?.title || pictureId,
    });
    return { ok: true, id: albumId, title, changed: true };
  });
}

/** The album's pictures in a new order: `ids` must name each of them once (else someone changed it meanwhile). */
export async function reorderAlbumPictures(
  db: Db,
  actor: AuditActor,
  albumId: string,
  ids: readonly string[],
): Promise<AlbumWrite> {
  return db.transaction().execute(async (trx) => {
    const title = await albumTitle(trx, albumId);
    if (title === undefined) return refused("notFound");
    const present = await trx
      .selectFrom("album_pictures")
      .select("picture_id")
      .where("album_id", "=", albumId)
      .execute();
    const known = new Set(present.map((row) => row.picture_id));
    if (ids.length !== known.size || new Set(ids).size !== ids.length || !ids.every((id) => known.has(id))) {
      return refused("stale");
    }
    const position = new Map(ids.map((id, index) => [id, index]));
    // In id order whatever the new order: two reorders at once lock rows alike and wait instead of deadlocking.
    for (const id of [...ids].sort()) {
      await trx
        .updateTable("album_pictures")
        .set({ sort_order: position.get(id) ?? 0 })
        .where("album_id", "=", albumId)
        .where("picture_id", "=", id)
        .execute();
    }
    await recordAudit(trx, actor, { action: "albums.reorderPictures", target: title });
    return { ok: true, id: albumId, title, changed: true };
  });
}

/** The album's cover: one of its pictures, or none (its first picture then stands in). */
export async function setAlbumCover(
  db: Db,
  actor: AuditActor,
  albumId: string,
  pictureId: string | null,
  now = new Date(),
): Promise<AlbumWrite> {
  return db.transaction().execute(async (trx) => {
    const title = await albumTitle(trx, albumId);
    if (title === undefined) return refused("notFound");
    if (pictureId !== null) {
      const member = await trx
        .selectFrom("album_pictures")
        .select("picture_id")
        .where("album_id", "=", albumId)
        .where("picture_id", "=", pictureId)
        .executeTakeFirst();
      if (!member) return refused("pictureNotFound");
    }
    await trx
      .updateTable("albums")
      .set({ cover_picture_id: pictureId, updated_at: now })
      .where("id", "=", albumId)
      .execute();
    await recordAudit(trx, actor, { action: "albums.cover", target: title, newValue: pictureId ?? "" });
    return { ok: true, id: albumId, title, changed: true };
  });
}

import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { groupsOfItems, storedAccess } from "#app/domains/access/access.server.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import type { AdminAlbum, AdminAlbumPicture, AdminAlbumSummary } from "./album.ts";

/* What the admin's album screens read (issue 21): every album, and one with its pictures and what could join it. */

type Db = Kysely<Database>;

/** Every album in the owner's order, with its groups' names and how many pictures it names. */
export async function listAdminAlbums(db: Db): Promise<AdminAlbumSummary[]> {
  const [albums, counts] = await Promise.all([
    db.selectFrom("albums").select(["id", "title", "slug", "visibility"]).orderBy("sort_order").orderBy("id").execute(),
    db
      .selectFrom("album_pictures")
      .select((eb) => ["album_id", eb.fn.countAll<number | string>().as("count")])
      .groupBy("album_id")
      .execute(),
  ]);
  const groups = await groupsOfItems(
    db,
    "album",
    albums.map((album) => album.id),
  );
  const countOf = new Map(counts.map((row) => [row.album_id, Number(row.count)]));
  return albums.map((album) => ({
    ...album,
    groupNames: (groups.get(album.id) ?? []).map((group) => group.name),
    pictureCount: countOf.get(album.id) ?? 0,
  }));
}

const pictureColumns = [
  "g.id",
  "g.title",
  "g.published",
  "i.width",
  "i.height",
  "i.placeholder",
  "i.variants",
] as const;

function toPicture(row: {
  id: string;
  title: string;
  published: boolean | number;
  width: number;
  height: number;
  placeholder: string;
  variants: string;
}): AdminAlbumPicture {
  return { id: row.id, title: row.title, published: Boolean(row.published), image: imageForDisplay(row) };
}

/** One album as its editor shows it, or null when it is gone. */
export async function findAdminAlbum(db: Db, id: string): Promise<AdminAlbum | null> {
  const album = await db.selectFrom("albums").selectAll().where("id", "=", id).executeTakeFirst();
  if (!album) return null;
  const [access, pictures, candidates] = await Promise.all([
    storedAccess(db, "album", id, album.visibility),
    db
      .selectFrom("album_pictures as ap")
      .innerJoin("gallery_images as g", "g.id", "ap.picture_id")
      .innerJoin("images as i", "i.id", "g.image_id")
      .select(pictureColumns)
      .where("ap.album_id", "=", id)
      .orderBy("ap.sort_order")
      .orderBy("g.id")
      .execute(),
    db
      .selectFrom("gallery_images as g")
      .innerJoin("images as i", "i.id", "g.image_id")
      .select(pictureColumns)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("album_pictures as ap")
              .select("ap.picture_id")
              .whereRef("ap.picture_id", "=", "g.id")
              .where("ap.album_id", "=", id),
          ),
        ),
      )
      .orderBy("g.sort_order")
      .orderBy("g.id")
      .execute(),
  ]);
  return {
    id: album.id,
    title: album.title,
    titleDe: album.title_de,
    slug: album.slug,
    slugDe: album.slug_de,
    description: album.description,
    descriptionDe: album.description_de,
    visibility: access.visibility,
    groupIds: access.groupIds,
    coverPictureId: album.cover_picture_id,
    pictures: pictures.map(toPicture),
    candidates: candidates.map(toPicture),
  };
}

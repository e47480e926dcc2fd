import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { listGroupChoices } from "#app/domains/access/access.server.ts";
import { findAdminAlbum } from "#app/domains/albums/album-admin-reads.server.ts";
import { idListField } from "#app/domains/albums/album-schema.ts";
import {
  addAlbumPictures,
  deleteAlbum,
  removeAlbumPicture,
  reorderAlbumPictures,
  setAlbumCover,
  updateAlbum,
} from "#app/domains/albums/albums.server.ts";
import { announceNewItem } from "#app/domains/subscriptions/announcements.server.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { rowIdOrNull, rowIdSchema } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminAction } from "#app/web/admin-action.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import { answerAlbumWrite, parseAlbumFields } from "./admin.albums.server.ts";

/* One album's editor (issue 21): its texts and readers, its pictures (add, take out, order, cover), deleting it. */

type Args = { request: Request; url: URL; params: { id?: string }; context: Readonly<RouterContextProvider> };

export async function albumLoader({ url, params, context }: Omit<Args, "request">) {
  requireAdmin(url, context);
  const runtime = runtimeOf(context);
  const { db } = runtime.database;
  const id = rowIdOrNull(params.id);
  const [album, groups] = await Promise.all([id ? findAdminAlbum(db, id) : null, listGroupChoices(db)]);
  if (!album) throw data(null, { status: 404 });
  return { album, groups, maxBytes: runtime.env.uploadMaxBytes };
}

const editorForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save") }).passthrough(),
  z.object({ intent: z.literal("delete") }),
  z.object({ intent: z.literal("addPictures"), ids: idListField }),
  z.object({ intent: z.literal("removePicture"), pictureId: rowIdSchema }),
  z.object({ intent: z.literal("reorderPictures"), ids: idListField }),
  z.object({ intent: z.literal("cover"), pictureId: rowIdSchema }),
]);

/** Asks for the album to be announced, after the answer; an album not showing a picture yet is left as it is. */
export function announceAlbum(db: Parameters<typeof announceNewItem>[0]["db"], id: string): void {
  void announceNewItem({ db }, { kind: "album", id }).catch((error: unknown) =>
    getLogger().warn({ err: error, album: id }, "The album's announcement is left to the sweep"),
  );
}

export function albumAction(args: Args) {
  return adminAction(args, async (call) => {
    const { t, db, admin } = call;
    const input = await readForm(args.request);
    const form = call.parse(editorForm, input, { message: t("admin.albums.error.form"), fieldErrors: false });
    // An id that cannot be one names no album: the same answer as one deleted meanwhile.
    const id = rowIdOrNull(args.params.id) ?? "-";
    switch (form.intent) {
      case "save":
        return answerAlbumWrite(
          t,
          await updateAlbum(db, admin, id, parseAlbumFields(call, input)),
          "admin.albums.saved",
        );
      case "delete":
        return answerAlbumWrite(t, await deleteAlbum(db, admin, id), "admin.albums.deleted");
      case "addPictures": {
        const result = await addAlbumPictures(db, admin, id, form.ids);
        // Its first picture to show makes an album news for its subscribers (the minute's sweep would find it too).
        if (result.ok && result.changed) announceAlbum(db, id);
        const answer = answerAlbumWrite(t, result, "admin.albums.picturesAdded");
        return { ...answer, message: t("admin.albums.picturesAdded", { count: result.ok ? (result.added ?? 0) : 0 }) };
      }
      case "removePicture":
        return answerAlbumWrite(
          t,
          await removeAlbumPicture(db, admin, id, form.pictureId),
          "admin.albums.pictureRemoved",
        );
      case "reorderPictures":
        return answerAlbumWrite(t, await reorderAlbumPictures(db, admin, id, form.ids), "admin.albums.orderSaved");
      case "cover":
        return answerAlbumWrite(t, await setAlbumCover(db, admin, id, form.pictureId), "admin.albums.coverSet");
    }
  });
}

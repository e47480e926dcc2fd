import { type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import { listGroupChoices } from "#app/domains/access/access.server.ts";
import { listAdminAlbums } from "#app/domains/albums/album-admin-reads.server.ts";
import { ALBUM_TITLE_MAX, type AlbumFields, albumFieldsSchema, idListField } from "#app/domains/albums/album-schema.ts";
import { type AlbumRefusal, type AlbumWrite, createAlbum, reorderAlbums } from "#app/domains/albums/albums.server.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { translateFieldErrors } from "#app/lib/field-errors.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { type AdminCall, AdminRefusal, adminAction } from "#app/web/admin-action.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";

/*
 * The albums screen (issue 21): every album in the owner's order, a new one, a new order. One album's editor is
 * admin.albums.$id.server.ts; both answer refusals the same way (`answerAlbumWrite`).
 */

type Args = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

export async function albumsLoader({ url, context }: Omit<Args, "request">) {
  requireAdmin(url, context);
  const { db } = runtimeOf(context).database;
  const [albums, groups] = await Promise.all([listAdminAlbums(db), listGroupChoices(db)]);
  return { albums, groups };
}

const REFUSALS: Record<AlbumRefusal, { status: number; key: AdminMessageKey }> = {
  notFound: { status: 404, key: "admin.albums.error.notFound" },
  pictureNotFound: { status: 404, key: "admin.albums.error.pictureNotFound" },
  stale: { status: 409, key: "admin.albums.error.stale" },
};

/** A domain's answer as the action's: its message on success, else the refusal with its status and fields. */
export function answerAlbumWrite(t: AdminCall["t"], result: AlbumWrite, said: AdminMessageKey): ActionResult {
  if (result.ok) return { ok: true, message: t(said, { title: result.title }), id: result.id };
  if (result.reason === "invalid") {
    const fieldErrors = translateFieldErrors(t, result.fieldErrors);
    throw new AdminRefusal(400, Object.values(fieldErrors)[0] ?? t("admin.albums.error.form"), { fieldErrors });
  }
  const { status, key } = REFUSALS[result.reason];
  throw new AdminRefusal(status, t(key));
}

/** An album's fields from a form, refused with the fields' messages in the admin's language. */
export function parseAlbumFields(call: AdminCall, input: Record<string, string>): AlbumFields {
  return call.parse(albumFieldsSchema, input, {
    message: call.t("admin.albums.error.form"),
    fieldErrors: { title: { max: ALBUM_TITLE_MAX }, title_de: { max: ALBUM_TITLE_MAX } },
  });
}

const listForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create") }).passthrough(),
  z.object({ intent: z.literal("reorder"), ids: idListField }),
]);

export function albumsAction(args: Args) {
  return adminAction(args, async (call) => {
    const input = await readForm(args.request);
    const form = call.parse(listForm, input, { message: call.t("admin.albums.error.form"), fieldErrors: false });
    if (form.intent === "create") {
      const fields = parseAlbumFields(call, input);
      const answer = answerAlbumWrite(call.t, await createAlbum(call.db, call.admin, fields), "admin.albums.created");
      // A new album opens in its editor (a plain form post: also without JavaScript).
      return redirect(`/admin/albums/${answer.ok ? answer.id : ""}`);
    }
    return answerAlbumWrite(call.t, await reorderAlbums(call.db, call.admin, form.ids), "admin.albums.reordered");
  });
}

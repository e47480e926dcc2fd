import type { RouterContextProvider } from "react-router";
import { ReorderError } from "#app/db/ordering.server.ts";
import { listGroupChoices } from "#app/domains/access/access.server.ts";
import { setPictureAccess } from "#app/domains/gallery/gallery-access.server.ts";
import {
  applyGalleryBulkAction,
  deleteGalleryEntry,
  GalleryNotFoundError,
  listGalleryCategories,
  listGalleryForAdmin,
  reorderGallery,
  setGalleryPublished,
  updateGalleryTexts,
} from "#app/domains/gallery/gallery-admin.server.ts";
import {
  galleryBulkIdsSchema,
  galleryBulkSchema,
  galleryIdSchema,
  galleryReorderSchema,
  galleryTextsSchema,
} from "#app/domains/gallery/gallery-schema.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { translateFieldErrors } from "#app/lib/field-errors.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { type AdminCall, AdminRefusal, adminAction } from "#app/web/admin-action.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";

type Args = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

/** The gallery screen: every picture (hidden ones too), the categories in use, and the upload size limit. */
export async function galleryLoader({ url, context }: Omit<Args, "request">) {
  requireAdmin(url, context);
  const { database, env } = runtimeOf(context);
  return {
    items: await listGalleryForAdmin(database.db),
    categories: await listGalleryCategories(database.db),
    groups: await listGroupChoices(database.db),
    maxBytes: env.uploadMaxBytes,
  };
}

/** The gallery screen's writes (texts, publish, delete, bulk, order); uploads have their own route. */
export function galleryAction(args: Args) {
  return adminAction(args, async (call) => {
    try {
      return await runGalleryIntent(call, await readForm(args.request));
    } catch (error) {
      if (error instanceof GalleryNotFoundError) throw new AdminRefusal(404, call.t("admin.common.notFound"));
      if (error instanceof ReorderError) throw new AdminRefusal(409, error.message);
      throw error;
    }
  });
}

async function runGalleryIntent({ admin, t, db, runtime, parse }: AdminCall, form: Record<string, string>) {
  const { storage } = runtime;
  const displayName = (title: string | undefined) => title?.trim() || t("admin.common.untitled");
  const done = (message: string): ActionResult => ({ ok: true, message });
  // An id that is not one of ours names no picture: the same answer as a picture that is gone.
  const id = () =>
    parse(galleryIdSchema, form.id ?? "", { message: t("admin.common.notFound"), status: 404, fieldErrors: false });
  switch (form.intent) {
    case "update": {
      const pictureId = id();
      const texts = parse(galleryTextsSchema, form, { message: t("admin.gallery.invalid") });
      await updateGalleryTexts(db, admin, pictureId, texts);
      return done(t("admin.gallery.saved", { name: displayName(texts.title) }));
    }
    case "publish":
    case "unpublish": {
      const published = form.intent === "publish";
      await setGalleryPublished(db, admin, id(), published);
      const name = displayName(form.name);
      return done(t(published ? "admin.gallery.published" : "admin.gallery.unpublished", { name }));
    }
    case "access": {
      // Who may see it; a move of its files between public and member names happens here (gallery-access).
      const result = await setPictureAccess(db, storage, admin, id(), form);
      if (result.ok) return done(t("admin.gallery.access.saved", { name: displayName(form.name) }));
      if (result.reason === "not-found") throw new AdminRefusal(404, t("admin.common.notFound"));
      if (result.reason === "busy") throw new AdminRefusal(409, t("admin.gallery.access.busy"));
      throw new AdminRefusal(400, t("admin.gallery.invalid"), {
        fieldErrors: translateFieldErrors(t, result.fieldErrors),
      });
    }
    case "bulk-access": {
      // Picture by picture, each move of files and its audit entry its own step (as the editor's would be).
      const ids = parse(galleryBulkIdsSchema, form.ids ?? "", { message: t("admin.common.error"), fieldErrors: false });
      const busy: string[] = [];
      for (const pictureId of ids) {
        const result = await setPictureAccess(db, storage, admin, pictureId, form);
        if (result.ok || result.reason === "not-found") continue;
        if (result.reason === "busy") busy.push(pictureId);
        else
          throw new AdminRefusal(400, t("admin.gallery.invalid"), {
            fieldErrors: translateFieldErrors(t, result.fieldErrors),
          });
      }
      if (busy.length > 0) throw new AdminRefusal(409, t("admin.gallery.bulk.accessBusy", { count: busy.length }));
      return done(t("admin.gallery.bulk.accessSaved", { count: ids.length }));
    }
    case "delete":
      await deleteGalleryEntry(db, admin, id(), storage);
      return done(t("admin.gallery.deleted", { name: displayName(form.name) }));
    case "bulk": {
      const {
        bulk: action,
        ids,
        category,
      } = parse(galleryBulkSchema, form, {
        message: t("admin.gallery.invalid"),
        fieldErrors: false,
      });
      const names = (await applyGalleryBulkAction(db, admin, { action, ids, category }, storage))
        .map((name) => `“${name}”`)
        .join(", ");
      const message =
        action === "publish"
          ? t("admin.gallery.bulk.published", { names })
          : action === "hide"
            ? t("admin.gallery.bulk.hidden", { names })
            : action === "delete"
              ? t("admin.gallery.bulk.deleted", { names })
              : category === ""
                ? t("admin.gallery.bulk.categoryCleared", { names })
                : t("admin.gallery.bulk.categorySet", { category, names });
      return done(message);
    }
    case "reorder": {
      const ids = parse(galleryReorderSchema, (form.ids ?? "").split(",").filter(Boolean), {
        message: t("admin.common.error"),
        fieldErrors: false,
      });
      await reorderGallery(db, admin, ids);
      return done(t("admin.common.orderSaved"));
    }
    default:
      throw new AdminRefusal(400, t("admin.common.error"));
  }
}

import { Form, Link, useFetcher, useNavigation } from "react-router";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { SortableList } from "#app/components/admin/sortable-list.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import { ALBUM_TITLE_MAX } from "#app/domains/albums/album-schema.ts";
import { type ActionResult, isActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import type { Route } from "./+types/admin.albums";
import { albumsAction, albumsLoader } from "./admin.albums.server.ts";

export function loader({ url, context }: Route.LoaderArgs) {
  return albumsLoader({ url, context });
}

export function action({ request, url, context }: Route.ActionArgs) {
  return albumsAction({ request, url, context });
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.albums");
}

/** The albums (issue 21): a new one opens in its editor; the list's order is /albums'. */
export default function AdminAlbums({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const navigation = useNavigation();
  const reorder = useFetcher<ActionResult>();
  useResultToast(reorder.data, t("admin.common.error"));
  // A refused new album comes back as the page's answer (a created one redirects to its editor).
  const refused = isActionResult(actionData) && !actionData.ok ? actionData : undefined;
  const errors = refused?.fieldErrors ?? {};
  const { albums } = loaderData;
  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.section.albums")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.albums.intro")}</p>
      </header>
      <ActionMessage result={actionData} />
      <section
        aria-labelledby="albums-create-title"
        className="mb-8 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800"
      >
        <h2 id="albums-create-title" className="text-xl font-semibold">
          {t("admin.albums.createTitle")}
        </h2>
        <Form method="post" className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start">
          <input type="hidden" name="intent" value="create" />
          <TextField
            label={t("admin.albums.field.title")}
            name="title"
            maxLength={ALBUM_TITLE_MAX}
            required
            error={errors.title}
            className="flex-1"
          />
          <Button type="submit" className="sm:mt-6" disabled={navigation.state === "submitting"}>
            {navigation.state === "submitting" ? t("admin.common.saving") : t("admin.albums.createButton")}
          </Button>
        </Form>
      </section>
      <section aria-labelledby="albums-list-title">
        <h2 id="albums-list-title" className="mb-3 text-xl font-semibold">
          {t("admin.albums.listTitle", { count: albums.length })}
        </h2>
        {albums.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 px-6 py-8 text-center text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
            {t("admin.albums.empty")}
          </p>
        ) : (
          <SortableList
            items={albums}
            label={t("admin.albums.listLabel")}
            nameOf={(album) => album.title}
            renderItem={(album) => (
              <div className="min-w-0">
                <Link
                  to={`/admin/albums/${album.id}`}
                  className="font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
                >
                  {album.title}
                </Link>
                <p className="text-sm text-zinc-600 dark:text-zinc-300">
                  {t("admin.albums.pictureCount", { count: album.pictureCount })} ·{" "}
                  {album.visibility === "everyone"
                    ? t("admin.albums.access.everyone")
                    : album.visibility === "members"
                      ? t("admin.albums.access.members")
                      : t("admin.albums.forGroups", { groups: album.groupNames.join(", ") || "–" })}
                </p>
              </div>
            )}
            onReorder={(ids) => reorder.submit({ intent: "reorder", ids: ids.join(",") }, { method: "post" })}
          />
        )}
      </section>
    </div>
  );
}

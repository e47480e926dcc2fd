import { useState } from "react";
import { useFetcher } from "react-router";
import { SortableList } from "#app/components/admin/sortable-list.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { ResponsiveImage } from "#app/components/responsive-image.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { AdminAlbum, AdminAlbumPicture } from "#app/domains/albums/album.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

const nameOf = (picture: AdminAlbumPicture, untitled: string) => picture.title || untitled;

function Thumbnail({ picture }: { picture: AdminAlbumPicture }) {
  return (
    <ResponsiveImage image={picture.image} alt="" sizes="64px" className="size-16 shrink-0 rounded object-cover" />
  );
}

/**
 * The album's pictures in its order (drag, keyboard and the move buttons, as every ordered list of the admin), each
 * with "use as cover" and "take out of the album" (the picture stays in the gallery).
 */
export function AlbumPictures({ album }: { album: AdminAlbum }) {
  const t = useAdminTranslate();
  const order = useFetcher<ActionResult>();
  useResultToast(order.data, t("admin.common.error"));
  const change = useFetcher<ActionResult>();
  useResultToast(change.data, t("admin.common.error"));
  const untitled = t("admin.common.untitled");
  if (album.pictures.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-zinc-300 px-6 py-8 text-center text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
        {t("admin.albums.noPictures")}
      </p>
    );
  }
  const cover = album.coverPictureId ?? album.pictures[0]?.id;
  return (
    <SortableList
      items={album.pictures}
      label={t("admin.albums.picturesLabel")}
      nameOf={(picture) => nameOf(picture, untitled)}
      renderItem={(picture) => (
        <div className="flex min-w-0 flex-wrap items-center gap-3">
          <Thumbnail picture={picture} />
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium">{nameOf(picture, untitled)}</p>
            <p className="text-sm text-zinc-600 dark:text-zinc-300">
              {picture.id === cover ? t("admin.albums.isCover") : null}
              {picture.id === cover && !picture.published ? " · " : null}
              {picture.published ? null : t("admin.albums.hiddenPicture")}
            </p>
          </div>
          <div className="flex flex-wrap gap-1">
            {picture.id === album.coverPictureId ? null : (
              <Button
                size="sm"
                variant="secondary"
                disabled={change.state !== "idle"}
                aria-label={t("admin.albums.useAsCoverLabel", { name: nameOf(picture, untitled) })}
                onClick={() => change.submit({ intent: "cover", pictureId: picture.id }, { method: "post" })}
              >
                {t("admin.albums.useAsCover")}
              </Button>
            )}
            <Button
              size="sm"
              variant="dangerOutline"
              disabled={change.state !== "idle"}
              aria-label={t("admin.albums.removeLabel", { name: nameOf(picture, untitled) })}
              onClick={() => change.submit({ intent: "removePicture", pictureId: picture.id }, { method: "post" })}
            >
              {t("admin.albums.remove")}
            </Button>
          </div>
        </div>
      )}
      onReorder={(ids) => order.submit({ intent: "reorderPictures", ids: ids.join(",") }, { method: "post" })}
    />
  );
}

/** Gallery pictures not in the album yet, to tick and add at its end in the gallery's order. */
export function AddAlbumPictures({ album }: { album: AdminAlbum }) {
  const t = useAdminTranslate();
  const fetcher = useFetcher<ActionResult>();
  const result = useResultToast(fetcher.data, t("admin.common.error"));
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [seen, setSeen] = useState(result);
  // Once added, the ticks start over (the pictures left the list of candidates).
  if (result !== seen) {
    setSeen(result);
    if (result?.ok) setChosen(new Set());
  }
  const untitled = t("admin.common.untitled");
  if (album.candidates.length === 0) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-300">{t("admin.albums.noCandidates")}</p>;
  }
  const ids = album.candidates.filter((picture) => chosen.has(picture.id)).map((picture) => picture.id);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="addPictures" />
      <input type="hidden" name="ids" value={ids.join(",")} />
      <fieldset>
        <legend className="sr-only">{t("admin.albums.addLegend")}</legend>
        <ul className="grid max-h-96 gap-2 overflow-y-auto sm:grid-cols-2 lg:grid-cols-3">
          {album.candidates.map((picture) => (
            <li key={picture.id}>
              <label className="flex items-center gap-3 rounded-lg border border-zinc-200 p-2 dark:border-zinc-800">
                <input
                  type="checkbox"
                  checked={chosen.has(picture.id)}
                  onChange={(event) => {
                    const on = event.currentTarget.checked;
                    setChosen((current) => {
                      const next = new Set(current);
                      if (on) next.add(picture.id);
                      else next.delete(picture.id);
                      return next;
                    });
                  }}
                  className="size-5 accent-indigo-700"
                />
                <Thumbnail picture={picture} />
                <span className="min-w-0 truncate text-sm">{nameOf(picture, untitled)}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="mt-3 flex justify-end">
        <Button type="submit" disabled={ids.length === 0 || fetcher.state !== "idle"}>
          {t("admin.albums.addButton", { count: ids.length })}
        </Button>
      </div>
    </fetcher.Form>
  );
}

import { useEffect } from "react";
import { Link, useFetcher, useNavigate, useRevalidator } from "react-router";
import { AlbumDetailsForm } from "#app/components/admin/albums/album-details-form.tsx";
import { AddAlbumPictures, AlbumPictures } from "#app/components/admin/albums/album-pictures.tsx";
import { GalleryUploader } from "#app/components/admin/gallery-uploader.tsx";
import { ShareLinks } from "#app/components/admin/share-links.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import type { Route } from "./+types/admin.albums.$id";
import { albumAction, albumLoader } from "./admin.albums.$id.server.ts";

export function loader({ url, params, context }: Route.LoaderArgs) {
  return albumLoader({ url, params, context });
}

export function action({ request, url, params, context }: Route.ActionArgs) {
  return albumAction({ request, url, params, context });
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.albums.editTitle");
}

const sectionClass = "mt-8";

/** One album's editor (issue 21): its details, its pictures, adding or uploading more, deleting it. */
export default function AdminAlbum({ loaderData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const { album, groups } = loaderData;
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const deleter = useFetcher<ActionResult>();
  const deleted = useResultToast(deleter.data, t("admin.common.error"));
  useEffect(() => {
    if (deleted?.ok) navigate("/admin/albums");
  }, [deleted, navigate]);
  return (
    <div>
      <p className="mb-4 text-sm">
        <Link to="/admin/albums" className="text-indigo-700 underline underline-offset-2 dark:text-indigo-300">
          {t("admin.albums.back")}
        </Link>
      </p>
      <header className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">{album.title}</h1>
          <p className="mt-2 text-zinc-600 dark:text-zinc-300">
            <a
              href={`/albums/${album.slug}`}
              className="text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
            >
              {t("admin.albums.view")}
            </a>
          </p>
        </div>
        <ConfirmDialog
          trigger={
            <Button variant="dangerOutline" disabled={deleter.state !== "idle"}>
              {t("admin.albums.delete")}
            </Button>
          }
          title={t("admin.albums.deleteTitle", { title: album.title })}
          description={t("admin.albums.deleteText")}
          confirmLabel={t("admin.common.delete")}
          cancelLabel={t("admin.common.cancel")}
          onConfirm={() => deleter.submit({ intent: "delete" }, { method: "post" })}
        />
      </header>
      <section aria-labelledby="album-details-title">
        <h2 id="album-details-title" className="mb-3 text-xl font-semibold">
          {t("admin.albums.detailsTitle")}
        </h2>
        <AlbumDetailsForm key={album.id} album={album} groups={groups} />
      </section>
      <div className={sectionClass}>
        <ShareLinks path={`/admin/albums/${album.id}/shares`} intro={t("admin.albums.sharesIntro")} />
      </div>
      <section aria-labelledby="album-pictures-title" className={sectionClass}>
        <h2 id="album-pictures-title" className="mb-3 text-xl font-semibold">
          {t("admin.albums.picturesTitle", { count: album.pictures.length })}
        </h2>
        <AlbumPictures album={album} />
      </section>
      <section aria-labelledby="album-add-title" className={sectionClass}>
        <h2 id="album-add-title" className="mb-3 text-xl font-semibold">
          {t("admin.albums.addTitle")}
        </h2>
        <AddAlbumPictures album={album} />
      </section>
      <section aria-labelledby="album-upload-title" className={sectionClass}>
        <h2 id="album-upload-title" className="mb-1 text-xl font-semibold">
          {t("admin.albums.uploadTitle")}
        </h2>
        <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.albums.uploadText")}</p>
        <GalleryUploader
          uploadUrl={`/admin/uploads/gallery?album=${encodeURIComponent(album.id)}`}
          maxBytes={loaderData.maxBytes}
          onUploaded={() => void revalidator.revalidate()}
        />
      </section>
    </div>
  );
}

import { useState } from "react";
import { useFetcher } from "react-router";
import { AccessField } from "#app/components/admin/access-field.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { TextAreaField, TextField } from "#app/components/ui/field.tsx";
import type { ContentVisibility } from "#app/domains/access/reader.ts";
import type { AdminAlbum } from "#app/domains/albums/album.ts";
import { ALBUM_DESCRIPTION_MAX, ALBUM_SLUG_MAX, ALBUM_TITLE_MAX } from "#app/domains/albums/album-schema.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/** An album's texts in both languages, its addresses and who may see it (issue 21), saved together. */
export function AlbumDetailsForm(props: { album: AdminAlbum; groups: { id: string; name: string }[] }) {
  const t = useAdminTranslate();
  const { album } = props;
  const fetcher = useFetcher<ActionResult>();
  const result = useResultToast(fetcher.data, t("admin.common.error"));
  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const [access, setAccess] = useState({ visibility: album.visibility as string, groupIds: album.groupIds.join(",") });
  return (
    <fetcher.Form method="post" className="grid gap-4 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
      <input type="hidden" name="intent" value="save" />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t("admin.albums.field.title")}
          name="title"
          defaultValue={album.title}
          maxLength={ALBUM_TITLE_MAX}
          required
          error={errors.title}
        />
        <TextField
          label={t("admin.albums.field.titleDe")}
          name="title_de"
          lang="de"
          defaultValue={album.titleDe}
          maxLength={ALBUM_TITLE_MAX}
          error={errors.title_de}
        />
        <TextField
          label={t("admin.albums.field.slug")}
          name="slug"
          defaultValue={album.slug}
          maxLength={ALBUM_SLUG_MAX}
          hint={t("admin.albums.field.slugHint")}
          error={errors.slug}
        />
        <TextField
          label={t("admin.albums.field.slugDe")}
          name="slug_de"
          defaultValue={album.slugDe}
          maxLength={ALBUM_SLUG_MAX}
          hint={t("admin.albums.field.slugHint")}
          error={errors.slug_de}
        />
        <TextAreaField
          label={t("admin.albums.field.description")}
          name="description"
          defaultValue={album.description}
          maxLength={ALBUM_DESCRIPTION_MAX}
          error={errors.description}
        />
        <TextAreaField
          label={t("admin.albums.field.descriptionDe")}
          name="description_de"
          lang="de"
          defaultValue={album.descriptionDe}
          maxLength={ALBUM_DESCRIPTION_MAX}
          error={errors.description_de}
        />
      </div>
      <AccessField
        words="admin.albums.access"
        idPrefix="album-access"
        visibility={access.visibility}
        groupIds={access.groupIds}
        groups={props.groups}
        errors={errors}
        onChange={(visibility: ContentVisibility, groupIds: string) => setAccess({ visibility, groupIds })}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          {fetcher.state === "idle" ? t("admin.albums.save") : t("admin.common.saving")}
        </Button>
      </div>
    </fetcher.Form>
  );
}

import { useMemo } from "react";
import { requireAdmin } from "#app/auth/session.server.ts";
import { BilingualField, ContentAdmin, type RenderFields } from "#app/components/admin/content-admin.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import { contentAction } from "#app/domains/content/content-admin.server.ts";
import { videoMedia } from "#app/domains/videos/video-media.server.ts";
import { adminVideos, videosService } from "#app/domains/videos/videos.server.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { getDb } from "#app/lib/runtime.server.ts";
import type { Route } from "./+types/admin.videos";

export async function loader({ url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  return { videos: await adminVideos(getDb(), videoMedia) };
}

export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = requireAdmin(url, context);
  return contentAction(request, admin, videosService);
}

export default function AdminVideos({ loaderData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const items = useMemo(
    () =>
      loaderData.videos.map((video) => ({
        id: video.id,
        active: video.active,
        name: video.title,
        detail: `${t(`admin.videos.source.${video.source}` as AdminMessageKey)}${video.embed_url ? `: ${video.embed_url}` : ""}`,
        values: {
          title: video.title,
          title_de: video.title_de,
          description: video.description,
          description_de: video.description_de,
          embed_url: video.embed_url,
          source: video.source,
        },
      })),
    [loaderData.videos, t],
  );

  const renderFields: RenderFields = (values, errors) => (
    <>
      <BilingualField name="title" label={t("admin.videos.title")} values={values} errors={errors} required />
      <BilingualField
        name="description"
        label={t("admin.videos.description")}
        values={values}
        errors={errors}
        multiline
        rows={3}
      />
      {values.source === "file" ? null : (
        <TextField
          name="embed_url"
          type="url"
          inputMode="url"
          label={t("admin.videos.url")}
          hint={t("admin.videos.urlHint")}
          defaultValue={values.embed_url ?? ""}
          error={errors?.embed_url}
          required
        />
      )}
    </>
  );

  return (
    <ContentAdmin
      heading={t("admin.videos.heading")}
      intro={t("admin.videos.intro")}
      addHeading={t("admin.videos.add")}
      listLabel={t("admin.videos.list")}
      emptyText={t("admin.videos.empty")}
      items={items}
      renderFields={renderFields}
    />
  );
}

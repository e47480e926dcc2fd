import { Video } from "lucide-react";
import { useMemo } from "react";
import { BilingualField, ContentAdmin, type RenderFields } from "#app/components/admin/content-admin.tsx";
import { UrlField } from "#app/components/admin/url-field.tsx";
import { VideoAccessForm } from "#app/components/admin/video-access-form.tsx";
import { PosterUploadForm, VideoUploadForm } from "#app/components/admin/video-upload-forms.tsx";
import { listGroupChoices } from "#app/domains/access/access.server.ts";
import { formatMegabytes } from "#app/domains/media/upload.server.ts";
import { setVideoAccess } from "#app/domains/videos/video-access.server.ts";
import { listVideosForAdmin, videosService } from "#app/domains/videos/videos.server.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import { contentAction } from "#app/web/content-admin.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.videos";

export async function loader({ url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  const { env, database } = runtimeOf(context);
  const [videos, groups] = await Promise.all([listVideosForAdmin(database.db), listGroupChoices(database.db)]);
  return {
    videos,
    groups,
    videoMax: formatMegabytes(env.videoUploadMaxBytes),
    posterMax: formatMegabytes(env.uploadMaxBytes),
  };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.videos");
}

export function action(args: Route.ActionArgs) {
  return contentAction(args, {
    ...videosService,
    access: { set: setVideoAccess, saved: "admin.videos.access.saved", busy: "admin.videos.access.busy" },
  });
}

export default function AdminVideos({ loaderData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const { posterMax } = loaderData;
  const items = useMemo(
    () =>
      loaderData.videos.map((video) => ({
        id: video.id,
        active: video.active,
        name: video.title,
        // A restricted video says so in the list, as a restricted post does in the posts' list.
        detail: [
          `${t(`admin.videos.source.${video.source}`)}${video.embed_url ? `: ${video.embed_url}` : ""}`,
          ...(video.visibility === "everyone"
            ? []
            : [
                t(
                  video.visibility === "members" ? "admin.videos.access.listMembers" : "admin.videos.access.listGroups",
                ),
              ]),
        ].join(" · "),
        preview: video.posterSrc ? (
          <img
            src={video.posterSrc}
            alt={t("admin.videos.poster.alt", { name: video.title })}
            className="aspect-video w-20 shrink-0 rounded object-cover"
          />
        ) : (
          <span className="flex aspect-video w-20 shrink-0 items-center justify-center rounded bg-zinc-200 dark:bg-zinc-800">
            <Video aria-hidden="true" className="size-5 text-zinc-600 dark:text-zinc-300" />
          </span>
        ),
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

  const videosById = useMemo(() => new Map(loaderData.videos.map((video) => [video.id, video])), [loaderData.videos]);

  const renderFields: RenderFields = (values, errors, suggestions) => (
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
        <UrlField
          name="embed_url"
          label={t("admin.videos.url")}
          hint={t("admin.videos.urlHint")}
          defaultValue={values.embed_url ?? ""}
          error={errors?.embed_url}
          suggestion={suggestions?.embed_url}
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
      extraAdd={<VideoUploadForm videoMax={loaderData.videoMax} posterMax={posterMax} />}
      renderExtra={(item) => {
        const video = videosById.get(item.id);
        return (
          <>
            <PosterUploadForm
              id={item.id}
              title={video?.title ?? item.name}
              posterSrc={video?.posterSrc ?? null}
              posterMax={posterMax}
            />
            {video ? <VideoAccessForm item={video} name={video.title} groups={loaderData.groups} /> : null}
          </>
        );
      }}
    />
  );
}

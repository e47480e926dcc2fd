import { useMemo } from "react";
import { BilingualField, ContentAdmin, type RenderFields } from "#app/components/admin/content-admin.tsx";
import { UrlField } from "#app/components/admin/url-field.tsx";
import { LinkIcon } from "#app/components/link-icon.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import { LINK_ICON_NAMES } from "#app/domains/links/link-icons.ts";
import { linksService, listLinksForAdmin } from "#app/domains/links/links.server.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import { contentAction } from "#app/web/content-admin.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.links";

export async function loader({ url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  return { links: await listLinksForAdmin(runtimeOf(context).database.db) };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.links");
}

export function action(args: Route.ActionArgs) {
  return contentAction(args, linksService);
}

export default function AdminLinks({ loaderData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const items = useMemo(
    () =>
      loaderData.links.map((link) => ({
        id: link.id,
        active: link.active,
        name: link.title,
        detail: link.url,
        preview: <LinkIcon name={link.icon} className="size-5 shrink-0 text-zinc-600 dark:text-zinc-300" />,
        values: { title: link.title, title_de: link.title_de, url: link.url, icon: link.icon },
      })),
    [loaderData.links],
  );

  const renderFields: RenderFields = (values, errors, suggestions) => (
    <>
      <BilingualField name="title" label={t("admin.links.title")} values={values} errors={errors} required />
      <div className="grid gap-4 md:grid-cols-2">
        <UrlField
          name="url"
          label={t("admin.links.url")}
          hint={t("admin.links.urlHint")}
          defaultValue={values.url ?? ""}
          error={errors?.url}
          suggestion={suggestions?.url}
        />
        <TextField
          name="icon"
          list="link-icon-names"
          autoComplete="off"
          label={t("admin.links.icon")}
          hint={t("admin.links.iconHint")}
          defaultValue={values.icon ?? "link"}
          error={errors?.icon}
        />
      </div>
    </>
  );

  return (
    <>
      <datalist id="link-icon-names">
        {LINK_ICON_NAMES.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <ContentAdmin
        heading={t("admin.links.heading")}
        intro={t("admin.links.intro")}
        addHeading={t("admin.links.add")}
        listLabel={t("admin.links.list")}
        emptyText={t("admin.links.empty")}
        items={items}
        renderFields={renderFields}
      />
    </>
  );
}

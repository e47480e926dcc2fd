import { useMemo } from "react";
import { BilingualField, ContentAdmin, type RenderFields } from "#app/components/admin/content-admin.tsx";
import { faqService, listFaqEntriesForAdmin } from "#app/domains/faq/faq.server.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import { contentAction } from "#app/web/content-admin.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.faq";

export async function loader({ url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  return { entries: await listFaqEntriesForAdmin(runtimeOf(context).database.db) };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.faq");
}

export function action(args: Route.ActionArgs) {
  return contentAction(args, faqService);
}

export default function AdminFaq({ loaderData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const items = useMemo(
    () =>
      loaderData.entries.map((entry) => ({
        id: entry.id,
        active: entry.active,
        name: entry.question,
        detail: entry.answer.slice(0, 160),
        values: {
          question: entry.question,
          question_de: entry.question_de,
          answer: entry.answer,
          answer_de: entry.answer_de,
        },
      })),
    [loaderData.entries],
  );

  const renderFields: RenderFields = (values, errors) => (
    <>
      <BilingualField name="question" label={t("admin.faq.question")} values={values} errors={errors} required />
      <BilingualField
        name="answer"
        label={t("admin.faq.answer")}
        hint={t("admin.faq.answerHint")}
        values={values}
        errors={errors}
        multiline
        rows={6}
        required
      />
    </>
  );

  return (
    <ContentAdmin
      heading={t("admin.faq.heading")}
      intro={t("admin.faq.intro")}
      addHeading={t("admin.faq.add")}
      listLabel={t("admin.faq.list")}
      emptyText={t("admin.faq.empty")}
      items={items}
      renderFields={renderFields}
    />
  );
}

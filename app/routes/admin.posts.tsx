import { Plus, Search } from "lucide-react";
import { Form, Link } from "react-router";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { LocalTime } from "#app/components/admin/posts/local-time.tsx";
import { PostStatusBadge } from "#app/components/admin/posts/post-status-badge.tsx";
import { buttonClass } from "#app/components/ui/button.tsx";
import { inputClass } from "#app/components/ui/field.tsx";
import { ScrollTable } from "#app/components/ui/scroll-table.tsx";
import { listPostsForAdmin } from "#app/domains/posts/post-admin.server.ts";
import { POST_STATUSES, type PostStatus } from "#app/domains/posts/post-schema.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.posts";
import { doneMessageKey } from "./admin.posts.$id.server.ts";

/** The list's filter from the address: an unknown status means all, a search is cut to a sane length. */
function parseListFilter(url: URL): { status: PostStatus | null; search: string } {
  const status = url.searchParams.get("status");
  const search = (url.searchParams.get("q") ?? "")
    .replace(/[\p{Cc}]/gu, " ")
    .trim()
    .slice(0, 100);
  return {
    status: (POST_STATUSES as readonly string[]).includes(status ?? "") ? (status as PostStatus) : null,
    search,
  };
}

export async function loader({ request, url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  const filter = parseListFilter(url);
  const posts = await listPostsForAdmin(runtimeOf(context).database.db, {
    status: filter.status,
    search: filter.search || null,
  });
  // After a delete, the editor sends the admin here with `?done=delete`.
  const done = doneMessageKey(url.searchParams.get("done"));
  return { posts, filter, done: done ? adminTranslatorFor(languageOf(request).lang)(done) : null };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.posts");
}

const linkClass =
  "font-medium text-indigo-700 underline hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:text-indigo-200";

export default function AdminPosts({ loaderData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const { posts, filter } = loaderData;
  const filtered = filter.status !== null || filter.search !== "";
  return (
    <div>
      <header className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">{t("admin.posts.heading")}</h1>
          <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.posts.intro")}</p>
        </div>
        <Link to="/admin/posts/new" className={buttonClass("primary")}>
          <Plus aria-hidden="true" className="size-4" />
          {t("admin.posts.new")}
        </Link>
      </header>

      <ActionMessage result={loaderData.done ? { ok: true, message: loaderData.done } : undefined} />
      {/* A GET form: the filter is in the address, works without JavaScript and can be bookmarked. */}
      <Form
        method="get"
        role="search"
        aria-label={t("admin.posts.filter")}
        className="mb-6 flex flex-wrap items-end gap-3"
      >
        <div>
          <label htmlFor="posts-status" className="block text-sm font-medium">
            {t("admin.posts.filter.status")}
          </label>
          <select id="posts-status" name="status" defaultValue={filter.status ?? ""} className={inputClass}>
            <option value="">{t("admin.posts.filter.all")}</option>
            {POST_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`admin.posts.status.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-60 flex-1">
          <label htmlFor="posts-search" className="block text-sm font-medium">
            {t("admin.posts.filter.search")}
          </label>
          <input
            id="posts-search"
            type="search"
            name="q"
            defaultValue={filter.search}
            placeholder={t("admin.posts.filter.searchHint")}
            maxLength={100}
            className={inputClass}
          />
        </div>
        <button type="submit" className={buttonClass("secondary")}>
          <Search aria-hidden="true" className="size-4" />
          {t("admin.posts.filter.apply")}
        </button>
        {filtered ? (
          <Link to="/admin/posts" className={`${linkClass} py-2`}>
            {t("admin.posts.filter.reset")}
          </Link>
        ) : null}
      </Form>

      {posts.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-300">
          {filtered ? t("admin.posts.noMatch") : t("admin.posts.empty")}
        </p>
      ) : (
        <>
          <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-300">
            {t("admin.posts.count", { count: posts.length })}
          </p>
          <ScrollTable caption={t("admin.posts.caption")} minWidth="min-w-[40rem]">
            <thead>
              <tr className="text-left text-zinc-600 dark:text-zinc-300">
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("admin.posts.column.title")}
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("admin.posts.column.status")}
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("admin.posts.column.publishAt")}
                </th>
                <th scope="col" className="py-2 font-medium">
                  {t("admin.posts.column.updated")}
                </th>
              </tr>
            </thead>
            <tbody>
              {posts.map((post) => (
                <tr key={post.id} className="border-t border-zinc-200 align-top dark:border-zinc-800">
                  <td className="py-2 pr-4">
                    <Link
                      to={`/admin/posts/${post.id}`}
                      className={linkClass}
                      aria-label={t("admin.posts.edit", { title: post.title })}
                    >
                      {post.title}
                    </Link>
                    {post.titleDe && post.titleDe !== post.title ? (
                      <span lang="de" className="block text-zinc-600 dark:text-zinc-300">
                        {post.titleDe}
                      </span>
                    ) : null}
                  </td>
                  <td className="py-2 pr-4">
                    <PostStatusBadge status={post.status} visible={post.visible} />
                    {post.visibility !== "everyone" ? (
                      <span className="ml-1 inline-block rounded-full border border-indigo-400 px-2 py-0.5 text-xs font-medium text-indigo-900 dark:border-indigo-500 dark:text-indigo-200">
                        {t(post.visibility === "members" ? "admin.posts.access.members" : "admin.posts.access.groups")}
                      </span>
                    ) : null}
                  </td>
                  <td className="whitespace-nowrap py-2 pr-4">
                    {post.publishAt && post.status !== "draft" ? (
                      <LocalTime iso={post.publishAt} />
                    ) : (
                      <span className="text-zinc-600 dark:text-zinc-300">{t("admin.posts.notYet")}</span>
                    )}
                  </td>
                  <td className="whitespace-nowrap py-2">
                    <LocalTime iso={post.updatedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        </>
      )}
    </div>
  );
}

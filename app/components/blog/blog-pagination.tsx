import { Link } from "react-router";
import { useTranslate } from "#app/web/root-data.ts";

// Apart from the post cards: the home page shows cards without paging, and its JavaScript budget is tight.
/** Newer/older page links with "Page n of m". */
export function BlogPagination(props: { page: number; pageCount: number; basePath: string }) {
  const t = useTranslate();
  if (props.pageCount <= 1) return null;
  const href = (page: number) => (page === 1 ? props.basePath : `${props.basePath}?page=${page}`);
  const linkClass =
    "rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-zinc-700 dark:hover:bg-zinc-800";
  return (
    <nav aria-label={t("blog.pagination")} className="mt-12 flex flex-wrap items-center justify-between gap-4">
      {props.page > 1 ? (
        <Link to={href(props.page - 1)} rel="prev" className={linkClass}>
          {t("blog.newerPosts")}
        </Link>
      ) : (
        <span />
      )}
      <p className="text-sm text-zinc-600 dark:text-zinc-300">
        {t("blog.pageOf", { page: props.page, pages: props.pageCount })}
      </p>
      {props.page < props.pageCount ? (
        <Link to={href(props.page + 1)} rel="next" className={linkClass}>
          {t("blog.olderPosts")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

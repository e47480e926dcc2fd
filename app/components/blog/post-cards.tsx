import { Link } from "react-router";
import { type Watermark, WatermarkBadge } from "#app/components/gallery/watermark-badge.tsx";
import { ResponsiveImage } from "#app/components/responsive-image.tsx";
import { type ImageDisplay, thumbnailWatermark } from "#app/domains/media/image-display.ts";
import type { PostCard } from "#app/domains/posts/blog-pages.server.ts";
import { useTranslate } from "#app/lib/root-data.ts";

const tagClass =
  "inline-block rounded-full bg-zinc-100 px-2.5 py-0.5 text-xs font-medium text-zinc-800 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:bg-zinc-800 dark:text-zinc-100 dark:hover:bg-zinc-700";

export function tagHref(tag: string): string {
  return `/blog/tag/${encodeURIComponent(tag)}`;
}

/** A post's tags as links to their lists. */
export function TagList({ tags, label }: { tags: string[]; label: string }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-wrap gap-2">
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={tagHref(tag)} className={tagClass}>
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** A cover: the clean widths under the badge when the watermark is on (seen once, as in the gallery's grid). */
export function PostCover(props: {
  image: ImageDisplay;
  alt: string;
  sizes: string;
  watermark: Watermark | null;
  eager?: boolean;
  inList?: boolean;
}) {
  const mark = thumbnailWatermark(props.image, props.watermark !== null);
  return (
    <div className="relative overflow-hidden rounded-lg bg-zinc-100 dark:bg-zinc-900">
      <ResponsiveImage
        image={props.image}
        only={mark.only}
        alt={props.alt}
        sizes={props.sizes}
        loading={props.eager ? "eager" : "lazy"}
        className="h-auto w-full"
      />
      {mark.badge && props.watermark ? <WatermarkBadge watermark={props.watermark} inGrid={props.inList} /> : null}
    </div>
  );
}

/** Date and reading time, as lists and the post itself show them. */
export function PostMeta({ post }: { post: Pick<PostCard, "publishedAt" | "date" | "readingMinutes"> }) {
  const t = useTranslate();
  return (
    <p className="text-sm text-zinc-600 dark:text-zinc-300">
      <time dateTime={post.publishedAt}>{post.date}</time>
      <span aria-hidden="true"> · </span>
      <span>{t("blog.readingTime", { minutes: post.readingMinutes })}</span>
    </p>
  );
}

/** The posts of a list page (/blog, a tag, the home page): cover, title, date, reading time, excerpt, tags. */
export function PostCards(props: { posts: PostCard[]; watermark: Watermark | null; headingLevel?: 2 | 3 }) {
  const t = useTranslate();
  const Heading = props.headingLevel === 3 ? "h3" : "h2";
  return (
    <ul className="grid gap-10 sm:grid-cols-2 lg:grid-cols-3">
      {props.posts.map((post, index) => (
        <li key={post.id}>
          <article className="flex h-full flex-col gap-3">
            {post.cover ? (
              <Link to={post.href} tabIndex={-1} aria-hidden="true">
                <PostCover
                  image={post.cover}
                  alt=""
                  sizes="(min-width: 1024px) 320px, (min-width: 640px) 50vw, 100vw"
                  watermark={props.watermark}
                  eager={index === 0}
                  inList
                />
              </Link>
            ) : null}
            <Heading className="text-xl font-semibold tracking-tight">
              <Link
                to={post.href}
                className="underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
              >
                {post.title}
              </Link>
            </Heading>
            <PostMeta post={post} />
            {post.excerpt ? <p className="text-zinc-700 dark:text-zinc-200">{post.excerpt}</p> : null}
            <TagList tags={post.tags} label={t("blog.tags")} />
          </article>
        </li>
      ))}
    </ul>
  );
}

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

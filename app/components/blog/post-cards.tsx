import { Link } from "react-router";
import { type Watermark, WatermarkBadge } from "#app/components/gallery/watermark-badge.tsx";
import { ResponsiveImage } from "#app/components/responsive-image.tsx";
import { type ImageDisplay, thumbnailWatermark } from "#app/domains/media/image-display.ts";
import type { PostCard } from "#app/domains/posts/blog-pages.server.ts";
import { useTranslate } from "#app/web/root-data.ts";

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
          <Link to={tagHref(tag)} className="blog-tag">
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
    <div className="@container relative overflow-hidden rounded-lg bg-zinc-100 dark:bg-zinc-900">
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

/**
 * Date and reading time, as lists and the post itself show them; and for a post not for everyone (only a signed-in
 * reader who may see it gets it at all) whom it is for: "Members", or its groups.
 */
export function PostMeta({
  post,
}: {
  post: Pick<PostCard, "publishedAt" | "date" | "readingMinutes" | "visibility" | "groups">;
}) {
  const t = useTranslate();
  const audience =
    post.visibility === "members"
      ? t("access.members")
      : post.visibility === "groups" && post.groups.length > 0
        ? t("access.groups", { groups: post.groups.join(", ") })
        : null;
  return (
    <p className="blog-muted">
      <time dateTime={post.publishedAt}>{post.date}</time>
      <span aria-hidden="true"> · </span>
      <span>{t("blog.readingTime", { minutes: post.readingMinutes })}</span>
      {audience ? (
        <>
          <span aria-hidden="true"> · </span>
          <span className="access-badge">{audience}</span>
        </>
      ) : null}
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
              <Link to={post.href} className="blog-title-link">
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

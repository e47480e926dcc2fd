import { useEffect, useRef } from "react";
import { Link } from "react-router";
import type { Watermark } from "#app/components/gallery/watermark-badge.tsx";
import { ShareButton } from "#app/components/share-button.tsx";
import type { PostPage } from "#app/domains/posts/blog-pages.server.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { PostCover, PostMeta, TagList } from "./post-cards.tsx";

const navLinkClass =
  "block rounded-lg border border-zinc-200 p-4 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-zinc-800 dark:hover:bg-zinc-900";

/**
 * A whole post: title, date, reading time and author, share (`shareUrl`: its canonical address), cover, contents
 * (long posts), body (with a copy button on each code block once JavaScript runs), tags, neighbours.
 */
export function PostArticle({
  post,
  watermark,
  shareUrl,
}: {
  post: PostPage;
  watermark: Watermark | null;
  shareUrl?: string;
}) {
  const t = useTranslate();
  const bodyRef = useRef<HTMLDivElement>(null);
  const html = post.html;
  // The copy buttons' code loads only for a body with code blocks; a new body (React replaces the HTML) gets its own.
  useEffect(() => {
    const body = bodyRef.current;
    if (!body || !html.includes("<pre")) return;
    let undo: (() => void) | undefined;
    let cancelled = false;
    void import("./code-copy.ts").then(({ addCopyButtons }) => {
      if (cancelled) return;
      undo = addCopyButtons(body, {
        copy: t("code.copy"),
        label: t("code.copyLabel"),
        copied: t("code.copied"),
        failed: t("code.failed"),
      });
    });
    return () => {
      cancelled = true;
      undo?.();
    };
  }, [html, t]);
  return (
    <>
      <article className="mx-auto max-w-3xl">
        <header className="mb-8 space-y-3">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{post.title}</h1>
          <PostMeta post={post} />
          <p className="text-sm text-zinc-600 dark:text-zinc-300">
            {post.authorName ? t("blog.byAuthor", { author: post.authorName }) : null}
            {post.authorName && post.updatedDate ? <span aria-hidden="true"> · </span> : null}
            {post.updatedDate ? (
              <time dateTime={post.updatedAt}>{t("blog.updated", { date: post.updatedDate })}</time>
            ) : null}
          </p>
          {shareUrl ? (
            // The button comes with JavaScript, once the page is hydrated: its row's height is kept for it from the
            // start (app.css), so that the text below does not move when it comes (a layout shift Lighthouse counted).
            <div className="post-share">
              <ShareButton
                url={shareUrl}
                title={post.title}
                className="post-share-button"
                statusClassName="post-share-status"
              />
            </div>
          ) : null}
        </header>
        {post.cover ? (
          <div className="mb-10">
            <PostCover
              image={post.cover}
              alt={post.coverAlt}
              sizes="(min-width: 800px) 768px, 100vw"
              watermark={watermark}
              eager
            />
          </div>
        ) : null}
        {post.toc.length > 0 ? (
          <nav aria-labelledby="post-toc" className="mb-10 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
            <h2 id="post-toc" className="mb-2 text-base font-semibold">
              {t("blog.toc")}
            </h2>
            <ol className="space-y-1 text-sm">
              {post.toc.map((entry) => (
                <li key={entry.id} className={entry.level === 3 ? "ml-4" : undefined}>
                  <a
                    href={`#${entry.id}`}
                    className="text-indigo-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300"
                  >
                    {entry.text}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        ) : null}
        {/* HTML from renderPostBody on the server (the safe Markdown renderer: no raw HTML, allowed links only). */}
        <div
          ref={bodyRef}
          className="prose-content"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: made by renderPostBody from the safe renderer
          dangerouslySetInnerHTML={{ __html: post.html }}
        />
        {post.tags.length > 0 ? (
          <footer className="mt-10">
            <h2 className="sr-only">{t("blog.tags")}</h2>
            <TagList tags={post.tags} label={t("blog.tags")} />
          </footer>
        ) : null}
      </article>
      {post.previous || post.next ? (
        <nav aria-label={t("blog.postNavigation")} className="mx-auto mt-14 grid max-w-3xl gap-4 sm:grid-cols-2">
          {post.previous ? (
            <Link to={`/blog/${post.previous.slug}`} rel="prev" className={navLinkClass}>
              <span className="block text-sm text-zinc-600 dark:text-zinc-300">{t("blog.previous")}</span>
              <span className="font-medium">{post.previous.title}</span>
            </Link>
          ) : (
            <span />
          )}
          {post.next ? (
            <Link to={`/blog/${post.next.slug}`} rel="next" className={`${navLinkClass} sm:text-right`}>
              <span className="block text-sm text-zinc-600 dark:text-zinc-300">{t("blog.next")}</span>
              <span className="font-medium">{post.next.title}</span>
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

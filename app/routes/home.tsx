import { Link } from "react-router";
import { justifiedLayout } from "#app/components/gallery/justified-rows.ts";
import { PictureRows } from "#app/components/gallery/picture-rows.tsx";
import { withIconMarkup } from "#app/components/link-icon.server.tsx";
import { LinkList } from "#app/components/link-list.tsx";
import { MarkdownContent, PageHeader } from "#app/components/page-header.tsx";
import { VideoCard } from "#app/components/video-player.tsx";
import { publicWatermark } from "#app/domains/gallery/public-watermark.server.ts";
import { latestGalleryImages } from "#app/domains/home/home.server.ts";
import { listNewForYou } from "#app/domains/home/new-for-you.server.ts";
import { listPublishedLinks } from "#app/domains/links/links.server.ts";
import { toPostCard } from "#app/domains/posts/blog-pages.server.ts";
import { listLatestPosts } from "#app/domains/posts/post-public.server.ts";
import { ownerData } from "#app/domains/seo/owner-data.server.ts";
import { seoDataFor } from "#app/domains/seo/seo-data.ts";
import { websiteAndPerson } from "#app/domains/seo/structured-data.ts";
import { latestVideo } from "#app/domains/videos/videos.server.ts";
import { galleryHref } from "#app/lib/gallery-url.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { pageTexts } from "#app/web/page-content.server.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { readerOf } from "#app/web/session.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/home";

/** What "New for you" calls each kind of item. */
const NEW_ITEM_WORDS = { post: "home.newPost", picture: "home.newPicture", album: "home.newAlbum" } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { lang } = languageOf(request);
  const db = runtimeOf(context).database.db;
  const reader = readerOf(context);
  const [settings, texts, images, links, video, posts] = await Promise.all([
    requestSettings(context),
    pageTexts(request, context, ["home_title", "home_subtitle"], ["home_content"]),
    latestGalleryImages(db, lang, undefined, reader),
    listPublishedLinks(db, lang),
    latestVideo(db, lang, reader),
    listLatestPosts(db, lang, 3, { reader }),
  ]);
  const newForYou = await listNewForYou(db, reader, lang);
  return {
    ...texts,
    images,
    // Planned here: the home page's pictures are fixed, so its visitors' code needs no planner.
    imageLayout: justifiedLayout(images.map((item) => item.image)),
    links: withIconMarkup(links),
    video,
    posts: posts.map(toPostCard),
    newForYou,
    watermark: publicWatermark(settings),
    thumbnailTitles: settings.thumbnail_titles === "true",
    // The page's structured data, made here so that visitors' code carries no JSON-LD builder.
    jsonLd: websiteAndPerson(seoDataFor(settings, lang, runtimeOf(context).env.baseUrl), ownerData(settings, links)),
  };
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  const seo = rootSeo(matches);
  const tags = pageMeta(seo, location.pathname, { title: loaderData?.home_title });
  return seo && loaderData ? [...tags, { "script:ld+json": loaderData.jsonLd as never }] : tags;
}

const moreLinkClass =
  "text-sm font-medium text-indigo-700 underline underline-offset-4 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:text-indigo-200";

function Highlight(props: { id: string; title: string; more: string; to: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={props.id} className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={props.id} className="text-2xl font-semibold tracking-tight">
          {props.title}
        </h2>
        <Link to={props.to} className={moreLinkClass}>
          {props.more}
        </Link>
      </div>
      {props.children}
    </section>
  );
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  const { images, links, video, posts, watermark } = loaderData;
  return (
    <>
      <article className="max-w-3xl">
        <PageHeader title={loaderData.home_title} subtitle={loaderData.home_subtitle} />
        <MarkdownContent html={loaderData.home_content} />
      </article>
      {loaderData.newForYou.length > 0 ? (
        <section aria-labelledby="home-new" className="mt-10 max-w-3xl">
          <h2 id="home-new" className="text-xl font-semibold tracking-tight">
            {t("home.newForYou")}
          </h2>
          <ul className="mt-3 space-y-1">
            {loaderData.newForYou.map((item) => (
              <li key={`${item.kind}-${item.id}`}>
                <span className="blog-muted">{t(NEW_ITEM_WORDS[item.kind])}: </span>
                <Link to={item.href} className="blog-title-link font-medium">
                  {item.title}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {images.length > 0 || links.length > 0 || video || posts.length > 0 ? (
        <div className="mt-14 space-y-14">
          {posts.length > 0 ? (
            <Highlight id="home-posts" title={t("home.latestPosts")} more={t("home.allPosts")} to="/blog">
              {/* Titles, dates and excerpts only: the blog's cards (covers, tags) would take the page's JavaScript
                  over its budget (tests/e2e/lean-public-pages.spec.ts). */}
              <ul className="grid gap-8 sm:grid-cols-3">
                {posts.map((post) => (
                  <li key={post.id} className="space-y-2">
                    <h3 className="text-lg font-semibold tracking-tight">
                      <Link to={post.href} className="blog-title-link">
                        {post.title}
                      </Link>
                    </h3>
                    <p className="blog-muted">
                      <time dateTime={post.publishedAt}>{post.date}</time> ·{" "}
                      {t("blog.readingTime", { minutes: post.readingMinutes })}
                    </p>
                    {post.excerpt ? <p className="text-zinc-700 dark:text-zinc-200">{post.excerpt}</p> : null}
                  </li>
                ))}
              </ul>
            </Highlight>
          ) : null}
          {images.length > 0 ? (
            <Highlight id="home-images" title={t("home.latestImages")} more={t("home.allImages")} to="/">
              {/* The gallery's rows: each picture whole, the watermark seen once. */}
              <PictureRows
                items={images}
                layout={loaderData.imageLayout}
                watermark={watermark}
                altFor={(item, index) => item.alt || t("home.image", { number: index + 1 })}
                caption={loaderData.thumbnailTitles ? (item) => item.title : undefined}
                link={(item, _index, picture) => (
                  <Link
                    to={galleryHref({ image: item.id })}
                    className="block focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-indigo-500"
                  >
                    {picture}
                  </Link>
                )}
              />
            </Highlight>
          ) : null}
          {video ? (
            <Highlight id="home-video" title={t("home.latestVideo")} more={t("home.allVideos")} to="/videos">
              <div className="max-w-3xl">
                <VideoCard video={video} headingLevel={3} />
              </div>
            </Highlight>
          ) : null}
          {links.length > 0 ? (
            <Highlight id="home-links" title={t("home.links")} more={t("home.allLinks")} to="/links">
              <LinkList links={links} />
            </Highlight>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

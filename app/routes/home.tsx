import { Link } from "react-router";
import { withIconMarkup } from "#app/components/link-icon.server.tsx";
import { LinkList } from "#app/components/link-list.tsx";
import { MarkdownContent, PageHeader } from "#app/components/page-header.tsx";
import { ResponsiveImage } from "#app/components/responsive-image.tsx";
import { VideoCard } from "#app/components/video-player.tsx";
import { latestGalleryImages } from "#app/domains/home/home.server.ts";
import { publicLinks } from "#app/domains/links/links.server.ts";
import { latestVideo } from "#app/domains/videos/videos.server.ts";
import { galleryHref } from "#app/lib/gallery-url.ts";
import { pageMeta, rootSeo } from "#app/lib/meta.ts";
import { pageTexts } from "#app/lib/page-content.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { useTranslate } from "#app/lib/root-data.ts";
import { getDb } from "#app/lib/runtime.server.ts";
import type { Route } from "./+types/home";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { lang } = languageOf(request);
  const db = getDb();
  const [texts, images, links, video] = await Promise.all([
    pageTexts(request, context, ["home_title", "home_subtitle"], ["home_content"]),
    latestGalleryImages(db, lang),
    publicLinks(db, lang),
    latestVideo(db, lang),
  ]);
  return { ...texts, images, links: withIconMarkup(links), video };
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname, { title: loaderData?.home_title });
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
  const { images, links, video } = loaderData;
  return (
    <>
      <article className="max-w-3xl">
        <PageHeader title={loaderData.home_title} subtitle={loaderData.home_subtitle} />
        <MarkdownContent html={loaderData.home_content} />
      </article>
      {images.length > 0 || links.length > 0 || video ? (
        <div className="mt-14 space-y-14">
          {images.length > 0 ? (
            <Highlight id="home-images" title={t("home.latestImages")} more={t("home.allImages")} to="/">
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                {images.map((item, index) => (
                  <li key={item.id}>
                    <Link
                      to={galleryHref({ image: item.id })}
                      className="block overflow-hidden rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
                    >
                      <ResponsiveImage
                        image={item.image}
                        alt={item.title || t("home.image", { number: index + 1 })}
                        sizes="(min-width: 640px) 33vw, 50vw"
                        // The first row may be the largest thing on screen: fetched at once, the first one first.
                        loading={index < 3 ? "eager" : "lazy"}
                        fetchPriority={index === 0 ? "high" : undefined}
                        className="aspect-square w-full object-cover transition-transform hover:scale-105"
                      />
                    </Link>
                  </li>
                ))}
              </ul>
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

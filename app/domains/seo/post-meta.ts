import type { MetaDescriptor } from "react-router";
import { type ImageDisplay, largeImage } from "#app/domains/media/image-display.ts";
import { absolute, languageUrls, type SeoData } from "./seo-urls.ts";
import { type JsonLd, jsonLdMeta } from "./structured-data.ts";

/** What a post page's loader sends that its head needs (a part of `PostPage`, blog-pages.server.ts). */
export type PostHead = {
  title: string;
  excerpt: string;
  /** ISO times. */
  publishedAt: string;
  updatedAt: string;
  authorName: string;
  cover: ImageDisplay | null;
  coverAlt: string;
  tags: string[];
  /** Each language version's path. */
  paths: { en: string; de: string };
};

const BLOG_NAME = { en: "Blog", de: "Blog" } as const;

/**
 * A post page's head on top of `pageMeta`'s tags: `og:type` article with its published and modified times and
 * tags, its cover as the share image, and the structured data `BlogPosting` and `BreadcrumbList`
 * (site › blog › post).
 */
export function postMeta(seo: SeoData, tags: MetaDescriptor[], post: PostHead): MetaDescriptor[] {
  const page = languageUrls(seo.baseUrl, post.paths);
  const url = seo.lang === "de" ? page.de : page.default;
  const home = languageUrls(seo.baseUrl, "/home");
  const blog = languageUrls(seo.baseUrl, "/blog");
  const inLanguage = (urls: { de: string; default: string }) => (seo.lang === "de" ? urls.de : urls.default);
  const cover = post.cover ? largeImage(post.cover) : null;
  const image = cover?.src ? absolute(cover.src, seo.baseUrl) : null;

  const posting: JsonLd = {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    "@id": `${url}#post`,
    mainEntityOfPage: url,
    url,
    headline: post.title.slice(0, 110),
    datePublished: post.publishedAt,
    dateModified: post.updatedAt,
    inLanguage: seo.lang,
    isPartOf: { "@type": "Blog", name: `${seo.siteTitle} · ${BLOG_NAME[seo.lang]}`, url: inLanguage(blog) },
    publisher: { "@type": "Person", "@id": `${home.default.replace(/\/home$/, "/")}#person`, name: seo.siteTitle },
  };
  if (post.excerpt) posting.description = post.excerpt;
  if (post.authorName) posting.author = { "@type": "Person", name: post.authorName };
  if (image) posting.image = image;
  if (post.tags.length > 0) posting.keywords = post.tags;

  const breadcrumbs: JsonLd = {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: [
      { "@type": "ListItem", position: 1, name: seo.siteTitle, item: inLanguage(home) },
      { "@type": "ListItem", position: 2, name: BLOG_NAME[seo.lang], item: inLanguage(blog) },
      { "@type": "ListItem", position: 3, name: post.title, item: url },
    ],
  };

  const head = tags.map((tag) => {
    if ("property" in tag && tag.property === "og:type") return { ...tag, content: "article" };
    if (image && "property" in tag && tag.property === "og:image") return { ...tag, content: image };
    if (image && "name" in tag && tag.name === "twitter:image") return { ...tag, content: image };
    return tag;
  });
  const article: MetaDescriptor[] = [
    { property: "article:published_time", content: post.publishedAt },
    { property: "article:modified_time", content: post.updatedAt },
    ...post.tags.map((tag) => ({ property: "article:tag", content: tag })),
  ];
  if (cover && image) {
    article.push(
      { property: "og:image:width", content: String(cover.width) },
      { property: "og:image:height", content: String(cover.height) },
    );
    if (post.coverAlt) article.push({ property: "og:image:alt", content: post.coverAlt });
  }
  return [...head, ...article, ...jsonLdMeta(posting), ...jsonLdMeta(breadcrumbs)];
}

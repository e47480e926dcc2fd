import type { MetaDescriptor } from "react-router";
import { type ImageDisplay, largeImage } from "#app/domains/media/image-display.ts";
import { absolute, languageUrls, type SeoData } from "./seo-urls.ts";

/**
 * Structured data (schema.org as JSON-LD) for the pages' heads, built from what the loaders send, so `meta`
 * can make it on the server and after a client navigation alike. React Router's `script:ld+json` descriptor
 * writes it as `<script type="application/ld+json">` with `<`, `>`, `&` and the line separators escaped as
 * `\u…` in the JSON, so no text in it can close the element. A data block is not a script: the
 * Content-Security-Policy's script-src does not apply to it (Chromium reports no violation; see the browser
 * test).
 */
export type JsonLd = { [key: string]: JsonLdValue };
type JsonLdValue = string | number | boolean | null | JsonLd | JsonLdValue[];

const CONTEXT = "https://schema.org";

/** The descriptor a `meta` function returns for one JSON-LD object. */
export function jsonLdMeta(data: JsonLd | null | undefined): MetaDescriptor[] {
  return data ? [{ "script:ld+json": data as never }] : [];
}

/** What the home page's loader sends for its structured data (see home-structured-data.server.ts). */
export type OwnerData = {
  name: string;
  /** The owner's picture: the logo or the share image, as an address on this site or absolute. */
  image: string;
  /** Profile pages elsewhere: the links page's published http(s) links. */
  sameAs: string[];
};

/** `/home`: the site (`WebSite`) and the person it belongs to (`Person`), linked by id. */
export function websiteAndPerson(seo: SeoData, owner: OwnerData): JsonLd {
  const home = languageUrls(seo.baseUrl, "/").default;
  const personId = `${home}#person`;
  const person: JsonLd = { "@type": "Person", "@id": personId, name: owner.name, url: home };
  if (owner.image) person.image = absolute(owner.image, seo.baseUrl);
  if (owner.sameAs.length > 0) person.sameAs = owner.sameAs;
  return {
    "@context": CONTEXT,
    "@graph": [
      {
        "@type": "WebSite",
        "@id": `${home}#website`,
        url: home,
        name: seo.siteTitle,
        description: seo.description,
        inLanguage: seo.lang,
        publisher: { "@id": personId },
        // The site's search (issue 22), for a search engine's box that searches the site from its results page.
        potentialAction: {
          "@type": "SearchAction",
          // Built as text: a URL object would escape the placeholder's braces.
          target: `${home}search?q={search_term_string}`,
          "query-input": "required name=search_term_string",
        },
      },
      person,
    ],
  };
}

/** A shared picture's page (`/?image=<id>`): the picture as `ImageObject`. */
export function imageObject(
  seo: SeoData,
  picture: { id: string; title: string; description: string; alt: string; image: ImageDisplay },
): JsonLd | null {
  const large = largeImage(picture.image);
  if (!large.src) return null;
  const urls = languageUrls(seo.baseUrl, "/", { image: picture.id });
  const data: JsonLd = {
    "@context": CONTEXT,
    "@type": "ImageObject",
    contentUrl: absolute(large.src, seo.baseUrl),
    url: seo.lang === "de" ? urls.de : urls.default,
    width: large.width,
    height: large.height,
    encodingFormat: "image/jpeg",
    inLanguage: seo.lang,
  };
  if (picture.title) data.name = picture.title;
  if (picture.description) data.description = picture.description;
  if (picture.alt) data.caption = picture.alt;
  return data;
}

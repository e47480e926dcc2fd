import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { AccessField } from "#app/components/admin/access-field.tsx";
import { VideoAccessForm } from "#app/components/admin/video-access-form.tsx";
import type { ContentVisibility } from "#app/domains/access/reader.ts";
import { adminDictionaryFor } from "#app/i18n/admin-dictionary.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { ADMIN_LAYOUT_ROUTE_ID } from "#app/lib/admin-data.ts";
import { SHARED_CACHE_WINDOW_SECONDS } from "#app/web/cache-policy.ts";

/** The element rendered on the server as an admin screen would (the admin layout's data: its language's words). */
function render(element: ReactElement, lang: Language): string {
  const Stub = createRoutesStub([
    { id: ADMIN_LAYOUT_ROUTE_ID, path: "/", loader: () => null, Component: () => element },
  ]);
  const layout = { email: "owner@example.com", lang, dictionary: adminDictionaryFor(lang) };
  return renderToString(
    createElement(Stub, { initialEntries: ["/"], hydrationData: { loaderData: { [ADMIN_LAYOUT_ROUTE_ID]: layout } } }),
  );
}

/** The text of the rendered hints, entities decoded. */
function hints(html: string): string[] {
  return [...html.matchAll(/data-testid="shared-cache-hint"[^>]*>([^<]*)<\/p>/g)].map((match) =>
    (match[1] ?? "").replaceAll("&#x27;", "'"),
  );
}

/** Both shared audience controls: the post and album editors' field, and the gallery and videos' own form. */
const controls: [string, (visibility: ContentVisibility) => ReactElement][] = [
  [
    "access-field (posts, albums)",
    (visibility) =>
      createElement(AccessField, {
        words: "admin.posts.access",
        idPrefix: "post-access",
        visibility,
        groupIds: "",
        groups: [],
        errors: {},
        onChange: () => {},
      }),
  ],
  [
    // The gallery's form is this one (item-access-form.tsx) in a picture's words.
    "item-access-form (gallery, videos)",
    (visibility) =>
      createElement(VideoAccessForm, { item: { id: "v1", visibility, groupIds: [] }, name: "Reel", groups: [] }),
  ],
];

/**
 * Issue 42, item 5: where the owner restricts something, the audience control says how long a CDN may go on
 * showing visitor pages (the pages' s-maxage plus stale-while-revalidate, SHARED_CACHE_WINDOW_SECONDS) and what to do.
 */
describe.each(controls)("the audience control %s", (_name, control) => {
  it("says how long a shared cache may show what was just restricted, in English and German", () => {
    expect(hints(render(control("members"), "en"))).toEqual([
      `A CDN or other shared cache in front of the site may go on showing pages visitors already loaded, with this item's tile or link, for up to ${SHARED_CACHE_WINDOW_SECONDS} seconds after you save. If that matters, purge the CDN's cache after saving, or give pages a shorter cache time there (an edge cache TTL below the site's s-maxage).`,
    ]);
    expect(hints(render(control("groups"), "de"))).toEqual([
      `Ein CDN oder ein anderer gemeinsamer Cache vor der Website kann Seiten, die Besucher schon geladen haben, samt Kachel oder Link dieses Eintrags nach dem Speichern noch bis zu ${SHARED_CACHE_WINDOW_SECONDS} Sekunden lang zeigen. Wenn das wichtig ist, leeren Sie nach dem Speichern den Cache des CDN oder geben Sie Seiten dort eine kürzere Cache-Zeit (eine Edge-Cache-TTL unter dem s-maxage der Website).`,
    ]);
  });

  it("says nothing of it while the item is for everyone", () => {
    expect(hints(render(control("everyone"), "en"))).toEqual([]);
  });
});

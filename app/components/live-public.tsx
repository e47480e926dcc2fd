import { useEffect, useState } from "react";
import { useFetcher, useLocation, useMatches, useRevalidator } from "react-router";
import type { MessageKey } from "#app/i18n/en.ts";
import { useLiveChanges, useLiveReset } from "#app/web/live/live-hooks.ts";
import { useLiveRefresh } from "#app/web/live/use-live-refresh.ts";
import { useTranslate } from "#app/web/root-data.ts";

/*
 * What a page shows live (issue 19), loaded by the root once the page is idle, so that no first load carries it
 * (tests/e2e/lean-public-pages.spec.ts): settings visitors see, and the offers of new pictures and posts.
 */

/** Screens that never reload under someone's typing: they announce a change instead. */
const EDITING = /^\/admin\/(posts\/[^/]+|settings)\/?$/;

type Listing = { areas: string[]; label: MessageKey; ids: (data: unknown) => string[] };

/** The pages that offer what is new, by route: the areas that may bring it, and the ids a load of the page lists. */
const LISTINGS: Record<string, Listing> = {
  // A picture is shown once published and its sizes are made (media).
  "routes/gallery": {
    areas: ["gallery", "media"],
    label: "live.newPictures",
    ids: (data) => (data as { gallery: { items: { id: string }[] } }).gallery.items.map((item) => item.id),
  },
  "routes/blog._index": {
    areas: ["posts"],
    label: "live.newPost",
    ids: (data) => (data as { list: { posts: { id: string }[] } }).list.posts.map((post) => post.id),
  },
  "routes/home": {
    areas: ["posts"],
    label: "live.newPost",
    ids: (data) => (data as { posts: { id: string }[] }).posts.map((post) => post.id),
  },
};

export default function LivePublic() {
  const { pathname } = useLocation();
  useLiveRefresh(["settings"], () => !EDITING.test(pathname));
  const leaf = useMatches().at(-1);
  const listing = leaf ? LISTINGS[leaf.id] : undefined;
  return listing && leaf?.loaderData ? (
    <LiveNewsOffer key={leaf.id} listing={listing} shown={listing.ids(leaf.loaderData)} />
  ) : null;
}

/**
 * "New pictures — Show" for a visitor whose page is open when something is published. A change in the listing's
 * areas loads the page's data in the background and compares what it lists with what the page was loaded with:
 * only what is new is offered, and only on the visitor's click does the page change, so nothing moves under their
 * scroll or focus. The offer floats over the page (it takes no room) inside a polite live region. A change that
 * brings nothing new (an edit, a removal) is left for the next visit: the page does not rearrange itself.
 */
function LiveNewsOffer({ listing, shown }: { listing: Listing; shown: string[] }) {
  const t = useTranslate();
  const location = useLocation();
  const fetcher = useFetcher();
  const revalidator = useRevalidator();
  const [fresh, setFresh] = useState(false);
  const check = () => {
    // An index route's data is asked for with ?index (React Router's rule for the route at "/").
    const params = new URLSearchParams(location.search);
    params.delete("image");
    const rest = params.toString();
    const query = location.pathname === "/" ? (rest ? `index&${rest}` : "index") : rest;
    fetcher.load(query ? `${location.pathname}?${query}` : location.pathname);
  };
  useLiveChanges(check, listing.areas);
  useLiveReset(check);
  const shownKey = shown.join("\n");
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    const known = new Set(shownKey.split("\n"));
    setFresh(listing.ids(fetcher.data).some((id) => !known.has(id)));
  }, [fetcher.state, fetcher.data, listing, shownKey]);
  const show = () => {
    setFresh(false);
    void revalidator.revalidate();
    // The visitor asked to see them: the top of the list, where new ones appear.
    window.scrollTo({ top: 0, behavior: "smooth" });
    document.getElementById("main")?.focus({ preventScroll: true });
  };
  return (
    <div role="status" className={fresh ? "fixed inset-x-0 top-4 z-40 flex justify-center px-4" : "sr-only"}>
      {fresh ? (
        <button
          type="button"
          onClick={show}
          className="rounded-full bg-indigo-700 px-4 py-2 text-sm font-medium text-white shadow-lg hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          {t(listing.label)} — {t("live.show")}
        </button>
      ) : null}
    </div>
  );
}

import { lazy, Suspense, useEffect, useState } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useNavigation,
} from "react-router";
import { SiteFooter } from "#app/components/site-footer.tsx";
import { SiteHeader } from "#app/components/site-header.tsx";
import { StatusPage } from "#app/components/status-page.tsx";
import { hasPublicAlbum, hasVisibleAlbum } from "#app/domains/albums/albums-public.server.ts";
import { readMenuSections, readReaderSections } from "#app/domains/content/menu-sections.server.ts";
import { menuOrderOf } from "#app/domains/content/menu-sections.ts";
import { hasPublishedPost } from "#app/domains/posts/post-public.server.ts";
import { seoDataFor } from "#app/domains/seo/seo-data.ts";
import { brandDefault } from "#app/domains/settings/brand.ts";
import { localizedSetting } from "#app/domains/settings/settings.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import { dictionaryTextFor } from "#app/i18n/i18n.server.ts";
import { keepDataForLightboxSteps } from "#app/lib/gallery-url.ts";
import { renderMarkdown } from "#app/lib/markdown.server.ts";
import { isThemeSetting, languageOf, THEME_SCRIPT, themeChoice } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { pageMeta } from "#app/web/meta.ts";
import { type RootData, useRootData, useTranslate } from "#app/web/root-data.ts";
import { getSessionUser, readerOf } from "#app/web/session.server.ts";
import { requestSettings, siteMiddleware } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/root";
import appStylesheet from "./app.css?url";

export const middleware: Route.MiddlewareFunction[] = [siteMiddleware];

/**
 * The stylesheet is the page's only render-blocking file. With a `precedence`, React sends it at the top of
 * `<head>`, ahead of the module preloads, so the first paint does not queue behind the page's JavaScript.
 */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: appStylesheet, precedence: "default" }];

// The gallery's lightbox steps change only the address; the site's data stays as it is.
export const shouldRevalidate = keepDataForLightboxSteps;

/**
 * The menu's sections as visitors see them (kept until a write), and for a signed-in reader "Blog", "Videos" and
 * "Albums" also when the only posts, videos or albums are theirs: restricted items count only for who may see them.
 */
async function readMenu(context: Route.LoaderArgs["context"], settings: SiteSettings): Promise<RootData["menu"]> {
  const db = runtimeOf(context).database.db;
  const menu = await readMenuSections(db, settings, { post: hasPublishedPost, album: hasPublicAlbum });
  const reader = readerOf(context);
  if (reader.kind === "visitor" || (menu.blog && menu.videos && menu.albums)) return menu;
  const theirs = await readReaderSections(db, reader, {
    post: (db, reader) => hasPublishedPost(db, { reader }),
    album: (db, reader) => hasVisibleAlbum(db, { reader }),
  });
  return {
    ...menu,
    blog: menu.blog || theirs.blog,
    videos: menu.videos || theirs.videos,
    albums: menu.albums || theirs.albums,
  };
}

export async function loader({ request, context }: Route.LoaderArgs): Promise<RootData> {
  const { lang } = languageOf(request);
  const settings = await requestSettings(context);
  const user = getSessionUser(context);
  const l = (key: Parameters<typeof localizedSetting>[1]) => localizedSetting(settings, key, lang);
  // Empty brand texts follow the site name (brand.ts); the German one falls back to the English first.
  const brand = (key: "footer_copyright" | "footer_site_name") =>
    l(key).trim() || brandDefault(key, settings.site_name);
  const { theme, followSystem } = themeChoice(
    request,
    isThemeSetting(settings.default_theme) ? settings.default_theme : undefined,
  );
  return {
    lang,
    theme,
    followSystemTheme: followSystem,
    dictionary: dictionaryTextFor(lang),
    user: user ? { email: user.email, isAdmin: user.isAdmin } : null,
    site: { name: settings.site_name, logoText: settings.site_logo_text, logoUrl: settings.site_logo_url },
    menu: await readMenu(context, settings),
    menuOrder: menuOrderOf(settings.menu_order),
    footer: {
      copyright: brand("footer_copyright"),
      siteName: brand("footer_site_name"),
      description: l("footer_description"),
      imprintTitle: l("footer_imprint_title"),
      imprintHtml: renderMarkdown(l("footer_imprint_content")),
      privacyTitle: l("footer_privacy_title"),
      privacyHtml: renderMarkdown(l("footer_privacy_content")),
    },
    seo: seoDataFor(settings, lang, runtimeOf(context).env.baseUrl),
  };
}

export function meta({ loaderData, location }: Route.MetaArgs) {
  return pageMeta(loaderData?.seo, location.pathname);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const t = useTranslate();
  return (
    <html lang={root?.lang ?? "en"} className={root?.theme === "light" ? "light" : "dark"} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* No paint before the header is whole: a page arriving in parts (a slow line, a busy phone) would show the
            header's first buttons, then move them aside for the rest (a layout shift). Ignored where unsupported. */}
        <link rel="expect" href="#main" blocking="render" />
        {root?.followSystemTheme ? (
          // Before anything is painted: a light system turns the dark page light (no flash of dark).
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant, allowed by its hash in the CSP
          <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        ) : null}
        <Meta />
        <Links />
      </head>
      <body className="site-body">
        <a href="#main" className="skip-link">
          {root ? t("common.skipToContent") : "Skip to content"}
        </a>
        <div className="flex min-h-screen flex-col">
          {root ? <SiteHeader /> : null}
          <main id="main" tabIndex={-1} className="site-main">
            {children}
          </main>
          {root ? <SiteFooter /> : null}
        </div>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function LoadingPlaceholder() {
  const t = useTranslate();
  return (
    <div
      role="status"
      aria-live="polite"
      className="animate-pulse py-16 text-center text-lg text-zinc-600 dark:text-zinc-300"
    >
      {t("common.loading")}
    </div>
  );
}

export default function App() {
  // The first render's effects have all run (React runs them in one pass), so the header's "/" shortcut listens: the
  // browser tests wait for this, not for hydration alone, after which a "/" pressed at once was lost on a loaded CI.
  useEffect(() => {
    document.documentElement.dataset.interactive = "";
  }, []);
  const navigation = useNavigation();
  const location = useLocation();
  const isNavigating =
    navigation.state === "loading" &&
    navigation.formMethod === undefined &&
    navigation.location.pathname !== location.pathname;
  return (
    <>
      <LivePublic />
      {isNavigating ? <LoadingPlaceholder /> : <Outlet />}
    </>
  );
}

const LivePublicParts = lazy(() => import("#app/components/live-public.tsx"));

/**
 * What updates live on every page (live-public.tsx), loaded at the page's first idle moment: no first load carries
 * it (tests/e2e/lean-public-pages.spec.ts counts every byte of the first load; this is kept that small on purpose).
 */
function LivePublic() {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    (window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1000)))(() => setIdle(true));
  }, []);
  return idle ? (
    <Suspense fallback={null}>
      <LivePublicParts />
    </Suspense>
  ) : null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const t = useTranslate();
  const root = useRootData();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusPage
        status={404}
        title={root ? t("notFound.title") : "Page not found"}
        text={root ? t("notFound.text") : ""}
      />
    );
  }
  if (isRouteErrorResponse(error) && error.status < 500) {
    // A refused request says why (the server's own message, e.g. from readForm), never "something went wrong".
    const reason = (error.data as { error?: unknown } | undefined)?.error;
    return (
      <StatusPage
        status={error.status}
        title={root ? t("error.refusedTitle") : "The request was refused"}
        text={typeof reason === "string" ? reason : root ? t("error.refusedText") : ""}
      />
    );
  }
  if (isRouteErrorResponse(error) && error.status === 503) {
    // The database is away (server/database-unavailable.ts): a client navigation gets the reason, not "went wrong".
    return (
      <StatusPage
        status={503}
        title={root ? t("error.unavailableTitle") : "Back in a moment"}
        text={root ? t("error.unavailableText") : ""}
      />
    );
  }
  // On the server, entry.server.tsx's handleError has logged it already (once, with the request's id).
  if (typeof document !== "undefined") console.error(error);
  return (
    <StatusPage
      status={isRouteErrorResponse(error) ? error.status : 500}
      title={root ? t("error.title") : "Something went wrong"}
      text={root ? t("error.text") : "The page could not be shown. Please try again in a moment."}
    />
  );
}

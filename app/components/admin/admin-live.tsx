import { useLocation } from "react-router";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { useLiveLoaded, useLiveState } from "#app/web/live/live-hooks.ts";
import { useLiveRefresh } from "#app/web/live/use-live-refresh.ts";

/**
 * Which change areas each admin screen shows (issue 19): a change there, by another admin, another tab, the
 * background work or a visitor, loads the screen's data again in place. The post editor and the settings form are
 * not here: they never reload under someone's typing (they announce a change instead).
 */
const SCREEN_AREAS: [path: RegExp, areas: string[]][] = [
  [/^\/admin\/?$/, ["gallery", "media", "posts", "links", "faq", "videos", "invites", "users", "mail", "messages"]],
  [/^\/admin\/gallery\/?$/, ["gallery", "media"]],
  [/^\/admin\/posts\/?$/, ["posts"]],
  [/^\/admin\/links\/?$/, ["links"]],
  [/^\/admin\/faq\/?$/, ["faq"]],
  [/^\/admin\/videos\/?$/, ["videos", "media"]],
  [/^\/admin\/invites\/?$/, ["invites", "users"]],
  [/^\/admin\/users\/?$/, ["users"]],
  [/^\/admin\/audit\/?$/, ["audit"]],
  [/^\/admin\/messages(\/[^/]+)?\/?$/, ["messages"]],
  [/^\/admin\/outbox(\/[^/]+)?\/?$/, ["outbox", "mail"]],
];

export function liveAreasOf(pathname: string): string[] {
  return SCREEN_AREAS.find(([path]) => path.test(pathname))?.[1] ?? [];
}

function LiveScreenRefresh({ areas }: { areas: string[] }) {
  useLiveRefresh(areas);
  return null;
}

/** Keeps the admin screen's lists current, and says so quietly when the connection is not up. */
export function AdminLive() {
  const { pathname } = useLocation();
  const areas = liveAreasOf(pathname);
  return (
    <>
      {areas.length > 0 ? <LiveScreenRefresh key={pathname} areas={areas} /> : null}
      <AdminLiveStatus />
    </>
  );
}

function AdminLiveStatus() {
  const t = useAdminTranslate();
  const state = useLiveState();
  const loaded = useLiveLoaded();
  const shown = loaded && state !== "connected";
  return (
    // Always in the page, so that a screen reader hears when it speaks; shown in a corner, so it moves nothing.
    <p
      role="status"
      data-testid="live-status"
      className={
        shown
          ? "fixed bottom-4 left-4 z-40 rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-700 shadow-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
          : "sr-only"
      }
    >
      {shown ? t(`admin.live.${state}` as "admin.live.connecting") : ""}
    </p>
  );
}

import { siteDescription, siteTitle } from "#app/domains/settings/settings.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { absolute, DEFAULT_SHARE_IMAGE } from "#app/web/meta.ts";
import type { Draft } from "./setting-fields.tsx";

/** How the home page looks when shared, by the same fallbacks as the page head (app/lib/meta.ts). */
export function SharePreview({ draft, baseUrl }: { draft: Draft; baseUrl: string }) {
  const t = useAdminTranslate();
  const title = siteTitle(draft);
  const description = siteDescription(draft);
  const imageSetting = draft.meta_og_image.trim();
  const image = absolute(imageSetting || DEFAULT_SHARE_IMAGE, baseUrl);
  // The head shares the home page at its address on BASE_URL, as its canonical link says (app/lib/meta.ts).
  const url = `${baseUrl}/`;
  // The admin's browser fetches only this site's own images; another host's picture is named, not loaded.
  const sameSite = image.startsWith(`${baseUrl}/`);
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // Shown as typed.
  }
  return (
    <figure className="mt-6">
      <figcaption className="mb-2 text-sm font-medium">{t("admin.settings.sharePreview")}</figcaption>
      <div
        data-testid="share-preview"
        className="max-w-md overflow-hidden rounded-xl border border-zinc-300 bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900"
      >
        {sameSite ? (
          <img src={image} alt={t("admin.settings.shareImageAlt")} className="aspect-[1200/630] w-full object-cover" />
        ) : (
          <p className="flex aspect-[1200/630] items-center justify-center p-4 text-center text-sm text-zinc-600 dark:text-zinc-300">
            {t("admin.settings.shareImageExternal", { url: image })}
          </p>
        )}
        <div className="border-t border-zinc-300 p-3 dark:border-zinc-700">
          <p className="text-xs uppercase text-zinc-600 dark:text-zinc-300">{host}</p>
          <p className="font-semibold">{title}</p>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{description}</p>
        </div>
      </div>
    </figure>
  );
}

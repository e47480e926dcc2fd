import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { SHARED_CACHE_WINDOW_SECONDS } from "#app/web/cache-policy.ts";

/**
 * Issue 42, item 5: visitor pages may be kept by a CDN in front of the site (`s-maxage`, then
 * `stale-while-revalidate`), so a just-restricted item's tile or link can stay visible there for that long. Said
 * where the owner restricts something, with the seconds taken from the header's own values.
 */
export function SharedCacheHint() {
  const t = useAdminTranslate();
  return (
    <p data-testid="shared-cache-hint" className="mt-2 text-xs text-zinc-600 dark:text-zinc-300">
      {t("admin.common.sharedCacheHint", { seconds: SHARED_CACHE_WINDOW_SECONDS })}
    </p>
  );
}

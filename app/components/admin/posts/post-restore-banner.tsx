import { Button } from "#app/components/ui/button.tsx";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { useFormatTime } from "./local-time.tsx";

/** The offer of a copy this browser kept that is newer than the server's: applied or discarded, never unasked. */
export function PostRestoreBanner({
  savedAt,
  onApply,
  onDiscard,
}: {
  savedAt: number;
  onApply: () => void;
  onDiscard: () => void;
}) {
  const t = useAdminTranslate();
  const formatTime = useFormatTime();
  return (
    <div
      role="alert"
      className="mb-6 rounded-md border border-amber-600 bg-amber-50 p-4 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-semibold">{t("admin.posts.restore.title")}</p>
      <p className="mt-1 text-sm">
        {t("admin.posts.restore.text", { time: formatTime(new Date(savedAt).toISOString()) })}
      </p>
      <div className="mt-3 flex gap-2">
        <Button size="sm" onClick={onApply}>
          {t("admin.posts.restore.apply")}
        </Button>
        <Button size="sm" variant="secondary" onClick={onDiscard}>
          {t("admin.posts.restore.discard")}
        </Button>
      </div>
    </div>
  );
}

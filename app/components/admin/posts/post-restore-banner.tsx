import { NoticePanel } from "#app/components/admin/notice-panel.tsx";
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
    <NoticePanel
      title={t("admin.posts.restore.title")}
      text={t("admin.posts.restore.text", { time: formatTime(new Date(savedAt).toISOString()) })}
      actions={
        <>
          <Button size="sm" onClick={onApply}>
            {t("admin.posts.restore.apply")}
          </Button>
          <Button size="sm" variant="secondary" onClick={onDiscard}>
            {t("admin.posts.restore.discard")}
          </Button>
        </>
      }
    />
  );
}

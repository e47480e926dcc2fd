import { Trash2, Upload } from "lucide-react";
import { useId, useState } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { toast } from "sonner";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { SITE_IMAGE_SETTING } from "#app/domains/settings/setting-registry.ts";
import { BASELINE_PREFIX } from "#app/domains/settings/settings-baseline.ts";
import { faviconUrls, type SiteImageKind } from "#app/domains/settings/site-images.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import type { SetValue } from "./setting-fields.tsx";

/** The file to show for a stored site image: the favicon's larger size, another site's share image not at all. */
function thumbnailOf(kind: SiteImageKind, stored: string): string | null {
  if (!stored.startsWith("/")) return null;
  if (kind === "favicon") return faviconUrls(stored)?.find((icon) => icon.sizes === "192x192")?.href ?? stored;
  return stored;
}

/** The stored image as a thumbnail (or what shows instead), with a button that removes it after asking. */
function CurrentSiteImage({ kind, stored, setValue }: { kind: SiteImageKind; stored: string; setValue: SetValue }) {
  const t = useAdminTranslate();
  const fetcher = useFetcher<ActionResult>();
  useResultToast(fetcher.data, t("admin.common.error"));
  const key = SITE_IMAGE_SETTING[kind];
  if (stored === "") {
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-300">{t(`admin.settings.none.${kind}` as AdminMessageKey)}</p>
    );
  }
  const thumbnail = thumbnailOf(kind, stored);
  const removeLabel = t(`admin.settings.remove.${kind}` as AdminMessageKey);
  return (
    <div className="flex flex-wrap items-center gap-4">
      {thumbnail ? (
        <img
          src={thumbnail}
          alt={t(`admin.settings.current.${kind}` as AdminMessageKey)}
          className={`rounded-md border border-zinc-200 bg-zinc-100 object-contain p-1 dark:border-zinc-700 dark:bg-zinc-800 ${
            kind === "share-image" ? "h-24 w-auto max-w-full" : kind === "favicon" ? "size-16" : "h-16 w-auto max-w-60"
          }`}
        />
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">
          {t("admin.settings.shareImageExternal", { url: stored })}
        </p>
      )}
      <ConfirmDialog
        trigger={
          <Button variant="dangerOutline" size="sm" disabled={fetcher.state !== "idle"}>
            <Trash2 aria-hidden="true" className="size-4" />
            {removeLabel}
          </Button>
        }
        title={t("admin.settings.removeImage.title")}
        description={t("admin.settings.removeImage.text")}
        confirmLabel={removeLabel}
        cancelLabel={t("admin.common.cancel")}
        onConfirm={() => {
          setValue(key, "");
          void fetcher.submit({ intent: "save", [key]: "", [`${BASELINE_PREFIX}${key}`]: stored }, { method: "post" });
        }}
      />
    </div>
  );
}

/**
 * Uploads a logo, favicon or share image; the server stores it and saves the setting at once. A form of its
 * own (a file cannot travel in the settings form); without JavaScript it posts to the upload route directly.
 */
export function SiteImageUpload({
  kind,
  loaded,
  uploadMax,
  setValue,
}: {
  kind: SiteImageKind;
  /** The stored setting: what the site shows now. */
  loaded: string;
  uploadMax: string;
  setValue: SetValue;
}) {
  const t = useAdminTranslate();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <CurrentSiteImage kind={kind} stored={loaded} setValue={setValue} />
      <form
        method="post"
        action={`/admin/uploads/site/${kind}`}
        encType="multipart/form-data"
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={async (event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const body = new FormData(form);
          const file = body.get("file");
          if (!(file instanceof File) || file.size === 0) {
            setError(t("admin.settings.upload.noFile"));
            return;
          }
          setBusy(true);
          setError(undefined);
          try {
            const response = await fetch(form.action, {
              method: "POST",
              body,
              headers: { Accept: "application/json" },
            });
            const answer = (await response.json().catch(() => null)) as (ActionResult & { url?: string }) | null;
            if (!answer?.ok) {
              const message = answer?.message ?? t("admin.settings.upload.failed");
              setError(message);
              toast.error(t("admin.common.error"), { description: message });
              return;
            }
            if (answer.url) setValue(SITE_IMAGE_SETTING[kind], answer.url);
            form.reset();
            toast.success(answer.message);
            void revalidator.revalidate();
          } catch {
            setError(t("admin.settings.upload.failed"));
          } finally {
            setBusy(false);
          }
        }}
      >
        <div className="flex-1">
          <label htmlFor={id} className="block text-sm font-medium">
            {t(`admin.settings.upload.${kind}` as AdminMessageKey)}
          </label>
          <input
            id={id}
            type="file"
            name="file"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
            aria-invalid={error ? true : undefined}
            className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-zinc-900 dark:file:border-zinc-600 dark:file:bg-zinc-900 dark:file:text-zinc-100"
          />
          <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">
            {t(`admin.settings.upload.hint.${kind}` as AdminMessageKey, { max: uploadMax })}
          </p>
          {error ? (
            <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
              {error}
            </p>
          ) : null}
        </div>
        <Button type="submit" variant="secondary" disabled={busy}>
          <Upload aria-hidden="true" className="size-4" />
          {busy ? t("admin.settings.upload.uploading") : t("admin.settings.upload.button")}
        </Button>
      </form>
    </div>
  );
}

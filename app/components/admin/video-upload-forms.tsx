import { type FormEvent, type ReactNode, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { toast } from "sonner";
import { Button } from "#app/components/ui/button.tsx";
import { CheckboxField, TextField } from "#app/components/ui/field.tsx";
import { type ActionResult, isActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { BilingualField } from "./content-admin.tsx";
import { sendWithProgress, UploadProgressBar, type UploadRequest } from "./upload-progress.tsx";
import { useResultToast } from "./use-result-toast.ts";

/** The upload resource route: streams the files to disk (never through the 1 MB form limit). */
export const VIDEO_UPLOAD_URL = "/admin/uploads/videos";
const VIDEO_TYPES = "video/mp4,video/webm,.mp4,.webm";
const IMAGE_TYPES = "image/jpeg,image/png,image/webp,image/avif,image/gif";

/** What each file input of the upload route takes, and the hint that names its size limit. */
const FILE_INPUTS = {
  video: { accept: VIDEO_TYPES, hint: "admin.videos.upload.fileHint" },
  poster: { accept: IMAGE_TYPES, hint: "admin.videos.upload.posterHint" },
} as const;

/** A file input of the upload route; its error is the answer's error for the field of the same name. */
function UploadFileField({
  name,
  label,
  max,
  errors,
  className,
  required,
}: {
  name: keyof typeof FILE_INPUTS;
  label: string;
  max: string;
  errors: Record<string, string> | undefined;
  className?: string;
  required?: boolean;
}) {
  const t = useAdminTranslate();
  return (
    <TextField
      name={name}
      type="file"
      accept={FILE_INPUTS[name].accept}
      label={label}
      hint={t(FILE_INPUTS[name].hint, { max })}
      error={errors?.[name]}
      className={className}
      required={required}
    />
  );
}

/**
 * Sends a form to the upload route with its progress (null while none is under way), shows the answer as a
 * toast and reloads the list on success. `cancel` stops the upload under way: the server keeps nothing of it.
 */
function useUpload() {
  const t = useAdminTranslate();
  const revalidator = useRevalidator();
  const [result, setResult] = useState<ActionResult>();
  const [percent, setPercent] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const request = useRef<UploadRequest | null>(null);
  useResultToast(result, t("admin.common.error"));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (request.current) return;
    const form = event.currentTarget;
    setBusy(true);
    setPercent(0);
    const sending = sendWithProgress(VIDEO_UPLOAD_URL, new FormData(form), setPercent);
    request.current = sending;
    const end = await sending.done;
    request.current = null;
    setBusy(false);
    if (end.kind === "cancelled") {
      setPercent(null);
      setResult(undefined);
      toast(t("admin.videos.upload.cancelled"));
      return;
    }
    const answer: ActionResult =
      end.kind === "answered" && isActionResult(end.body)
        ? end.body
        : // The server's body limit answers before the route, in plain text.
          {
            ok: false,
            message: t(
              end.kind === "answered" && end.status === 413
                ? "admin.videos.upload.tooLargeUnknown"
                : "admin.videos.upload.failed",
            ),
          };
    setResult(answer);
    // A finished upload keeps its full bar until the next one; a refused one leaves none.
    setPercent(answer.ok ? 100 : null);
    if (answer.ok) {
      form.reset();
      await revalidator.revalidate();
    }
  };
  return {
    percent,
    busy,
    onSubmit,
    cancel: () => request.current?.cancel(),
    errors: result && !result.ok ? result.fieldErrors : undefined,
  };
}

/** A new video from a file: its texts, the MP4/WebM file and an optional poster. */
export function VideoUploadForm({ videoMax, posterMax }: { videoMax: string; posterMax: string }) {
  const t = useAdminTranslate();
  const { busy, percent, onSubmit, cancel, errors } = useUpload();
  return (
    <section aria-labelledby="upload-heading" className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
      <h2 id="upload-heading" className="text-xl font-semibold">
        {t("admin.videos.upload.heading")}
      </h2>
      <p className="mb-4 mt-1 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.videos.upload.intro")}</p>
      <form
        method="post"
        action={VIDEO_UPLOAD_URL}
        encType="multipart/form-data"
        onSubmit={onSubmit}
        className="space-y-4"
        noValidate
      >
        <input type="hidden" name="intent" value="create" />
        <BilingualField name="title" label={t("admin.videos.title")} values={{}} errors={errors} required />
        <BilingualField
          name="description"
          label={t("admin.videos.description")}
          values={{}}
          errors={errors}
          multiline
          rows={3}
        />
        <div className="grid gap-4 md:grid-cols-2">
          <UploadFileField name="video" label={t("admin.videos.upload.file")} max={videoMax} errors={errors} required />
          <UploadFileField name="poster" label={t("admin.videos.upload.poster")} max={posterMax} errors={errors} />
        </div>
        <CheckboxField
          name="active"
          label={t("admin.common.published")}
          hint={t("admin.content.publishedHint")}
          defaultChecked
        />
        {percent === null ? null : (
          <div>
            <UploadProgressBar percent={percent} label={t("admin.videos.upload.progress")} />
            <p aria-live="polite" className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
              {percent === 100 ? t(busy ? "admin.videos.upload.processing" : "admin.videos.upload.done") : ""}
            </p>
          </div>
        )}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy}>
            {busy ? t("admin.videos.upload.uploading") : t("admin.videos.upload.submit")}
          </Button>
          {busy && percent !== 100 ? (
            <Button type="button" variant="secondary" onClick={cancel}>
              {t("admin.videos.upload.cancel")}
            </Button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

/**
 * A video's poster in its edit panel: the current one (with a button to remove it), and a form for a new one.
 * Without a poster the public page shows the video's title on a plain box.
 */
export function PosterUploadForm({
  id,
  title,
  posterSrc,
  posterMax,
}: {
  id: string;
  title: string;
  posterSrc: string | null;
  posterMax: string;
}) {
  const t = useAdminTranslate();
  const { busy, onSubmit, errors } = useUpload();
  return (
    <div className="mt-6 space-y-4 border-t border-zinc-200 pt-4 dark:border-zinc-700">
      {posterSrc ? (
        <PosterForm intent="removePoster" id={id} onSubmit={onSubmit} className="items-center">
          <img
            src={posterSrc}
            alt={t("admin.videos.poster.alt", { name: title })}
            className="aspect-video w-32 rounded object-cover"
          />
          <Button type="submit" variant="dangerOutline" size="sm" disabled={busy}>
            {t("admin.videos.poster.remove")}
          </Button>
        </PosterForm>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">{t("admin.videos.poster.none")}</p>
      )}
      <PosterForm intent="poster" id={id} onSubmit={onSubmit} className="items-end">
        <UploadFileField
          name="poster"
          label={t("admin.videos.poster.label")}
          max={posterMax}
          errors={errors}
          className="min-w-0 flex-1"
          required
        />
        <Button type="submit" variant="secondary" disabled={busy}>
          {busy
            ? t("admin.videos.upload.uploading")
            : t(posterSrc ? "admin.videos.poster.replace" : "admin.videos.poster.submit")}
        </Button>
      </PosterForm>
    </div>
  );
}

/** One poster request (upload or removal) for video `id`: a multipart post to the upload route, sent by `useUpload`. */
function PosterForm({
  intent,
  id,
  onSubmit,
  className,
  children,
}: {
  intent: "poster" | "removePoster";
  id: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  className: string;
  children: ReactNode;
}) {
  return (
    <form
      method="post"
      action={VIDEO_UPLOAD_URL}
      encType="multipart/form-data"
      onSubmit={onSubmit}
      className={`flex flex-wrap gap-3 ${className}`}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {children}
    </form>
  );
}

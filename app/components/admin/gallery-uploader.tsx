import { CheckCircle2, CircleAlert, Upload } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

type Entry = {
  key: string;
  name: string;
  state: "waiting" | "uploading" | "processing" | "done" | "error";
  percent: number;
  message: string;
};

export const ACCEPTED_IMAGE_TYPES = "image/jpeg,image/png,image/webp,image/avif,image/gif";

function megabytes(bytes: number): string {
  const value = bytes / 1024 / 1024;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MB`;
}

/**
 * Many files at once, by drag and drop or the file picker: each is sent on its own request (one after the
 * other, so the server processes one image at a time) with its own progress bar and its own error.
 */
export function GalleryUploader({
  uploadUrl,
  maxBytes,
  onUploaded,
}: {
  uploadUrl: string;
  maxBytes: number;
  onUploaded: () => void;
}) {
  const t = useAdminTranslate();
  const inputId = useId();
  const hintId = useId();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [dragging, setDragging] = useState(false);
  const queue = useRef<{ key: string; file: File }[]>([]);
  const running = useRef(false);
  const counter = useRef(0);

  const update = (key: string, patch: Partial<Entry>) =>
    setEntries((list) => list.map((entry) => (entry.key === key ? { ...entry, ...patch } : entry)));

  const send = (key: string, file: File) =>
    new Promise<void>((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", uploadUrl);
      xhr.setRequestHeader("Accept", "application/json");
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) {
          update(key, { state: "uploading", percent: Math.round((event.loaded / event.total) * 100) });
        }
      };
      xhr.upload.onload = () => update(key, { state: "processing", percent: 100 });
      xhr.onload = () => {
        let result: ActionResult | null = null;
        try {
          result = JSON.parse(xhr.responseText) as ActionResult;
        } catch {
          result = null;
        }
        if (result?.ok) {
          update(key, { state: "done", percent: 100, message: result.message });
          onUploaded();
        } else {
          const message = result?.message ?? t("admin.gallery.upload.failed", { name: file.name, status: xhr.status });
          update(key, { state: "error", message });
        }
        resolve();
      };
      const interrupted = () => {
        update(key, { state: "error", message: t("admin.gallery.upload.interrupted", { name: file.name }) });
        resolve();
      };
      xhr.onerror = interrupted;
      xhr.onabort = interrupted;
      const form = new FormData();
      form.append("file", file, file.name);
      xhr.send(form);
    });

  const run = async () => {
    if (running.current) return;
    running.current = true;
    for (let next = queue.current.shift(); next; next = queue.current.shift()) await send(next.key, next.file);
    running.current = false;
  };

  const add = (files: FileList | File[]) => {
    const added: Entry[] = [];
    for (const file of Array.from(files)) {
      counter.current += 1;
      const key = `${counter.current}-${file.name}`;
      if (file.size > maxBytes) {
        // Refused at once: the server would refuse it too, after the whole upload.
        added.push({
          key,
          name: file.name,
          state: "error",
          percent: 0,
          message: t("admin.gallery.error.tooLarge", { name: file.name, size: megabytes(maxBytes) }),
        });
        continue;
      }
      added.push({ key, name: file.name, state: "waiting", percent: 0, message: "" });
      queue.current.push({ key, file });
    }
    setEntries((list) => [...list, ...added]);
    void run();
  };

  const statusText = (entry: Entry) => {
    switch (entry.state) {
      case "waiting":
        return t("admin.gallery.upload.waiting");
      case "uploading":
        return t("admin.gallery.upload.uploading", { percent: entry.percent });
      case "processing":
        return t("admin.gallery.upload.processing");
      default:
        return entry.message;
    }
  };

  return (
    <section aria-labelledby={`${inputId}-heading`} className="mb-10">
      <h2 id={`${inputId}-heading`} className="mb-3 text-xl font-semibold">
        {t("admin.gallery.upload.heading")}
      </h2>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; keyboard users reach the file input inside it */}
      <div
        onDragOver={(event) => {
          if (!event.dataTransfer.types.includes("Files")) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = "copy";
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          if (event.dataTransfer.files.length === 0) return;
          event.preventDefault();
          setDragging(false);
          add(event.dataTransfer.files);
        }}
        className={`flex flex-col items-center gap-2 rounded-xl border-2 border-dashed px-6 py-10 text-center ${
          dragging
            ? "border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950"
            : "border-zinc-300 dark:border-zinc-700"
        }`}
      >
        <Upload aria-hidden="true" className="size-8 text-zinc-500 dark:text-zinc-400" />
        <p>
          {t("admin.gallery.upload.drop")}{" "}
          <input
            id={inputId}
            type="file"
            multiple
            accept={ACCEPTED_IMAGE_TYPES}
            aria-describedby={hintId}
            className="peer sr-only"
            onChange={(event) => {
              if (event.currentTarget.files) add(event.currentTarget.files);
              event.currentTarget.value = "";
            }}
          />
          <label
            htmlFor={inputId}
            className="cursor-pointer font-semibold text-indigo-700 underline underline-offset-2 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-500 dark:text-indigo-300"
          >
            {t("admin.gallery.upload.choose")}
          </label>
        </p>
        <p id={hintId} className="text-sm text-zinc-600 dark:text-zinc-300">
          {t("admin.gallery.upload.hint", { size: megabytes(maxBytes) })}
        </p>
      </div>
      {entries.length > 0 ? (
        <div className="mt-4">
          <ul aria-label={t("admin.gallery.upload.listLabel")} className="space-y-2">
            {entries.map((entry) => (
              <li
                key={entry.key}
                className="rounded-lg border border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800"
                data-state={entry.state}
              >
                <div className="flex items-center gap-2">
                  {entry.state === "done" ? (
                    <CheckCircle2 aria-hidden="true" className="size-4 shrink-0 text-green-700 dark:text-green-400" />
                  ) : entry.state === "error" ? (
                    <CircleAlert aria-hidden="true" className="size-4 shrink-0 text-red-700 dark:text-red-400" />
                  ) : null}
                  <span className="min-w-0 flex-1 truncate font-medium">{entry.name}</span>
                  {entry.state === "done" ? (
                    <span className="text-green-800 dark:text-green-300">{t("admin.gallery.upload.done")}</span>
                  ) : null}
                </div>
                {entry.state === "error" || entry.state === "done" ? null : (
                  <progress
                    max={100}
                    value={entry.state === "waiting" ? 0 : entry.percent}
                    aria-label={t("admin.gallery.upload.progress", { name: entry.name })}
                    className="mt-2 h-2 w-full accent-indigo-700"
                  />
                )}
                <p
                  aria-live="polite"
                  className={`mt-1 ${entry.state === "error" ? "text-red-700 dark:text-red-300" : "text-zinc-600 dark:text-zinc-300"}`}
                >
                  {entry.state === "done" ? "" : statusText(entry)}
                </p>
              </li>
            ))}
          </ul>
          {entries.every((entry) => entry.state === "done" || entry.state === "error") ? (
            <Button variant="ghost" size="sm" className="mt-2" onClick={() => setEntries([])}>
              {t("admin.gallery.upload.clear")}
            </Button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

import { CheckCircle2, CircleAlert, Upload } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { isActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { sendWithProgress, UploadProgressBar } from "./upload-progress.tsx";

type Entry = {
  key: string;
  name: string;
  state: "waiting" | "uploading" | "processing" | "done" | "error";
  percent: number;
  message: string;
};

type Visibility = "later" | "now";
type Placement = "top" | "bottom";
type Queued = { key: string; file: File; batch: number; publish: Visibility; placement: Placement };

/** Where the browser remembers the owner's choice of place for new pictures. */
const PLACEMENT_KEY = "vitrine.gallery.placement";

export const ACCEPTED_IMAGE_TYPES = "image/jpeg,image/png,image/webp,image/avif,image/gif";

function megabytes(bytes: number): string {
  const value = bytes / 1024 / 1024;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MB`;
}

/**
 * Many files at once, by drag and drop or the file picker: each is sent on its own request (one after the
 * other, so the server processes one image at a time) with its own progress bar and its own error. Before
 * choosing, the owner says whether the new pictures are published at once or stay hidden until they publish them
 * (hidden unless they say otherwise, each time), and whether they go to the top or the bottom of the gallery
 * (remembered in this browser). A batch sent to the top keeps its own order there.
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
  const queue = useRef<Queued[]>([]);
  const running = useRef(false);
  const counter = useRef(0);
  /** The picture each batch added last: the next one of the batch goes right after it at the top. */
  const lastOfBatch = useRef(new Map<number, string>());
  const [publish, setPublish] = useState<Visibility>("later");
  const [placement, setPlacement] = useState<Placement>("bottom");

  useEffect(() => {
    const remembered = window.localStorage.getItem(PLACEMENT_KEY);
    if (remembered === "top" || remembered === "bottom") setPlacement(remembered);
  }, []);

  const choosePlacement = (value: Placement) => {
    setPlacement(value);
    window.localStorage.setItem(PLACEMENT_KEY, value);
  };

  const update = (key: string, patch: Partial<Entry>) =>
    setEntries((list) => list.map((entry) => (entry.key === key ? { ...entry, ...patch } : entry)));

  const send = async ({ key, file, batch, ...choices }: Queued) => {
    // The choices before the file: the server reads the fields as the body streams in.
    const form = new FormData();
    form.append("publish", choices.publish);
    form.append("placement", choices.placement);
    const after = lastOfBatch.current.get(batch);
    if (choices.placement === "top" && after) form.append("after", after);
    form.append("file", file, file.name);
    const { done } = sendWithProgress(uploadUrl, form, (percent) =>
      update(key, percent === 100 ? { state: "processing", percent } : { state: "uploading", percent }),
    );
    const end = await done;
    if (end.kind !== "answered") {
      update(key, { state: "error", message: t("admin.gallery.upload.interrupted", { name: file.name }) });
      return;
    }
    const result = isActionResult(end.body) ? end.body : null;
    if (result?.ok) {
      if (result.id) lastOfBatch.current.set(batch, result.id);
      update(key, { state: "done", percent: 100, message: result.message });
      onUploaded();
    } else {
      const message = result?.message ?? t("admin.gallery.upload.failed", { name: file.name, status: end.status });
      update(key, { state: "error", message });
    }
  };

  const run = async () => {
    if (running.current) return;
    running.current = true;
    for (let next = queue.current.shift(); next; next = queue.current.shift()) await send(next);
    running.current = false;
  };

  const add = (files: FileList | File[]) => {
    const added: Entry[] = [];
    counter.current += 1;
    const batch = counter.current;
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
      queue.current.push({ key, file, batch, publish, placement });
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
      <div className="mb-4 grid gap-4 sm:grid-cols-2">
        <ChoiceGroup
          legend={t("admin.gallery.upload.visibility")}
          name="upload-visibility"
          value={publish}
          onChange={setPublish}
          options={[
            { value: "later", label: t("admin.gallery.upload.keepHidden") },
            { value: "now", label: t("admin.gallery.upload.publishNow") },
          ]}
        />
        <ChoiceGroup
          legend={t("admin.gallery.upload.placement")}
          name="upload-placement"
          value={placement}
          onChange={choosePlacement}
          options={[
            { value: "bottom", label: t("admin.gallery.upload.placeBottom") },
            { value: "top", label: t("admin.gallery.upload.placeTop") },
          ]}
        />
      </div>
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
          {t("admin.gallery.upload.hint", { size: megabytes(maxBytes) })} {t("admin.gallery.upload.titleHint")}
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
                  <UploadProgressBar
                    percent={entry.state === "waiting" ? 0 : entry.percent}
                    label={t("admin.gallery.upload.progress", { name: entry.name })}
                    className="mt-2"
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

/** A labelled group of radio buttons (one choice of a few). */
function ChoiceGroup<V extends string>(props: {
  legend: string;
  name: string;
  value: V;
  onChange: (value: V) => void;
  options: { value: V; label: string }[];
}) {
  return (
    <fieldset className="rounded-lg border border-zinc-200 px-4 py-3 dark:border-zinc-800">
      <legend className="px-1 text-sm font-semibold">{props.legend}</legend>
      <div className="space-y-1">
        {props.options.map((option) => (
          <label key={option.value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={props.name}
              value={option.value}
              checked={props.value === option.value}
              onChange={() => props.onChange(option.value)}
              className="size-4 accent-indigo-700"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

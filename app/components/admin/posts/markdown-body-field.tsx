import { ImagePlus } from "lucide-react";
import { type DragEvent, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { UploadProgressBar } from "#app/components/admin/upload-progress.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { inputClass } from "#app/components/ui/field.tsx";
import { BODY_MAX } from "#app/domains/posts/post-schema.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { altFromFileName, pictureMarkdown, uploadPostImage } from "./post-image-upload.ts";

/** How long the preview waits after the last keystroke before asking the server to render the text. */
const PREVIEW_DELAY_MS = 700;

type Preview = { kind: "empty" } | { kind: "loading" } | { kind: "failed" } | { kind: "shown"; html: string };

/**
 * A post's Markdown text with pictures put in by dropping them on it or choosing them ("Insert picture"): each
 * goes through the site's image pipeline and lands at the caret as `![alt](image:<id>)`. Beside it, the live
 * preview rendered by the server with the public pages' renderer.
 */
export function MarkdownBodyField(props: {
  lang: Language;
  name: string;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const t = useAdminTranslate();
  const id = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<{ key: number; name: string; percent: number }[]>([]);
  const [dragging, setDragging] = useState(false);
  const [preview, setPreview] = useState<Preview>({ kind: "empty" });
  // The latest text, for an upload that finishes after more typing: the picture goes into the text as it is then.
  const latest = useRef(props.value);
  latest.current = props.value;
  const { onChange } = props;

  useEffect(() => {
    if (props.value.trim() === "") {
      setPreview({ kind: "empty" });
      return;
    }
    const controller = new AbortController();
    const timer = window.setTimeout(async () => {
      setPreview((current) => (current.kind === "shown" ? current : { kind: "loading" }));
      try {
        const body = new FormData();
        body.set("source", props.value);
        body.set("lang", props.lang);
        const response = await fetch("/admin/posts/preview", { method: "POST", body, signal: controller.signal });
        if (!response.ok) throw new Error(String(response.status));
        const { html } = (await response.json()) as { html: string };
        setPreview({ kind: "shown", html });
      } catch {
        if (!controller.signal.aborted) setPreview({ kind: "failed" });
      }
    }, PREVIEW_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [props.value, props.lang]);

  const insertPictures = async (files: File[], caret: number) => {
    let at = caret;
    for (const file of files) {
      const key = Date.now() + Math.random();
      setUploads((list) => [...list, { key, name: file.name, percent: 0 }]);
      const result = await uploadPostImage(file, (percent) =>
        setUploads((list) => list.map((item) => (item.key === key ? { ...item, percent } : item))),
      );
      setUploads((list) => list.filter((item) => item.key !== key));
      if (!result.ok) {
        toast.error(result.message ?? t("admin.posts.image.failed", { name: file.name }));
        continue;
      }
      const next = pictureMarkdown(latest.current, at, altFromFileName(file.name), result.image.id);
      at = next.caret;
      latest.current = next.text;
      onChange(next.text);
      toast.success(t("admin.posts.image.uploaded", { name: file.name }));
    }
    const element = textarea.current;
    if (element) {
      element.focus();
      requestAnimationFrame(() => element.setSelectionRange(at, at));
    }
  };

  const caretAtDrop = (event: DragEvent<HTMLTextAreaElement>): number => {
    // Where the pointer is, when the browser can tell; otherwise where the caret was.
    const position = (
      document as Document & {
        caretPositionFromPoint?: (x: number, y: number) => { offset: number; offsetNode: Node } | null;
      }
    ).caretPositionFromPoint?.(event.clientX, event.clientY);
    if (position && position.offsetNode === event.currentTarget) return position.offset;
    return event.currentTarget.selectionStart ?? latest.current.length;
  };

  const onDrop = (event: DragEvent<HTMLTextAreaElement>) => {
    const files = [...event.dataTransfer.files].filter((file) => file.type.startsWith("image/"));
    setDragging(false);
    if (files.length === 0) return;
    event.preventDefault();
    void insertPictures(files, caretAtDrop(event));
  };

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      <div>
        <div className="flex flex-wrap items-end justify-between gap-2">
          <label htmlFor={id} className="block text-sm font-medium">
            {props.label}
          </label>
          <Button variant="secondary" size="sm" onClick={() => picker.current?.click()}>
            <ImagePlus aria-hidden="true" className="size-4" />
            {t("admin.posts.image.insert")}
          </Button>
          <input
            ref={picker}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            multiple
            hidden
            aria-label={t("admin.posts.image.insert")}
            data-testid={`insert-picture-${props.lang}`}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = "";
              void insertPictures(files, textarea.current?.selectionStart ?? latest.current.length);
            }}
          />
        </div>
        <textarea
          ref={textarea}
          id={id}
          name={props.name}
          value={props.value}
          onChange={(event) => onChange(event.target.value)}
          onDragOver={(event) => {
            if ([...event.dataTransfer.types].includes("Files")) {
              event.preventDefault();
              setDragging(true);
            }
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          rows={18}
          maxLength={BODY_MAX}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={[hintId, props.error ? errorId : ""].filter(Boolean).join(" ")}
          className={`${inputClass} font-mono text-sm ${dragging ? "outline-2 outline-indigo-500" : ""}`}
        />
        <p id={hintId} className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">
          {dragging ? t("admin.posts.image.dropHere") : t("admin.posts.field.bodyHint")}
        </p>
        {props.error ? (
          <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-300">
            {props.error}
          </p>
        ) : null}
        {uploads.map((upload) => (
          <UploadProgressBar
            key={upload.key}
            className="mt-2"
            percent={upload.percent}
            label={t("admin.posts.image.inserting", { name: upload.name })}
          />
        ))}
      </div>
      <section
        aria-label={t("admin.posts.preview.label", {
          language: props.lang === "de" ? t("admin.posts.editor.german") : t("admin.posts.editor.english"),
        })}
        aria-live="polite"
        aria-busy={preview.kind === "loading"}
        className="min-h-40 rounded-md border border-dashed border-zinc-300 p-4 text-sm dark:border-zinc-700"
        data-testid={`post-preview-${props.lang}`}
      >
        <h2 className="mb-2 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">
          {t("admin.posts.preview.heading")}
        </h2>
        {preview.kind === "shown" ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered on the server by the public pages' safe renderer
          <div lang={props.lang} className="prose-content" dangerouslySetInnerHTML={{ __html: preview.html }} />
        ) : (
          <p
            className={
              preview.kind === "failed" ? "text-red-700 dark:text-red-300" : "text-zinc-600 dark:text-zinc-300"
            }
          >
            {t(
              preview.kind === "failed"
                ? "admin.posts.preview.failed"
                : preview.kind === "loading"
                  ? "admin.posts.preview.loading"
                  : "admin.posts.preview.empty",
            )}
          </p>
        )}
      </section>
    </div>
  );
}

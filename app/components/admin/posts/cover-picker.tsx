import { ImageUp, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { UploadProgressBar } from "#app/components/admin/upload-progress.tsx";
import { ResponsiveImage } from "#app/components/responsive-image.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { uploadPostImage } from "./post-image-upload.ts";

/**
 * The post's cover: a picture sent through the site's image pipeline; the form carries only its id. Its alt
 * texts are fields of each language's tab.
 */
export function CoverPicker(props: {
  imageId: string;
  image: ImageDisplay | null;
  alt: string;
  error?: string;
  onChange: (imageId: string, image: ImageDisplay | null) => void;
}) {
  const t = useAdminTranslate();
  const picker = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ name: string; percent: number } | null>(null);

  const upload = async (file: File) => {
    setProgress({ name: file.name, percent: 0 });
    const result = await uploadPostImage(file, (percent) => setProgress({ name: file.name, percent }));
    setProgress(null);
    if (!result.ok) {
      toast.error(result.message ?? t("admin.posts.image.failed", { name: file.name }));
      return;
    }
    props.onChange(result.image.id, result.image.image);
    toast.success(t("admin.posts.image.uploaded", { name: file.name }));
  };

  return (
    <fieldset className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-700">
      <legend className="px-1 text-sm font-medium">{t("admin.posts.cover.heading")}</legend>
      <input type="hidden" name="cover_image_id" value={props.imageId} />
      {props.imageId && props.image ? (
        <div className="mb-3 max-w-sm overflow-hidden rounded-md" data-testid="cover-preview">
          <ResponsiveImage image={props.image} alt={props.alt} sizes="24rem" className="h-auto w-full" />
        </div>
      ) : props.imageId ? (
        <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.posts.cover.notReady")}</p>
      ) : (
        <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.posts.cover.none")}</p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => picker.current?.click()} disabled={progress !== null}>
          <ImageUp aria-hidden="true" className="size-4" />
          {props.imageId ? t("admin.posts.cover.replace") : t("admin.posts.cover.choose")}
        </Button>
        {props.imageId ? (
          <Button variant="ghost" size="sm" onClick={() => props.onChange("", null)}>
            <Trash2 aria-hidden="true" className="size-4" />
            {t("admin.posts.cover.remove")}
          </Button>
        ) : null}
      </div>
      <input
        ref={picker}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
        hidden
        aria-label={t("admin.posts.cover.choose")}
        data-testid="cover-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void upload(file);
        }}
      />
      {progress ? (
        <UploadProgressBar
          className="mt-3"
          percent={progress.percent}
          label={t("admin.posts.image.inserting", { name: progress.name })}
        />
      ) : null}
      {props.error ? <p className="mt-2 text-sm text-red-700 dark:text-red-300">{props.error}</p> : null}
    </fieldset>
  );
}

import { Eye } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { TextAreaField } from "#app/components/ui/field.tsx";
import type { SettingKey } from "#app/domains/settings/settings-defaults.ts";
import { SETTING_LIMITS } from "#app/domains/settings/settings-form.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/** Markdown source with a preview rendered on the server by the same safe rules as the public pages. */
export function MarkdownField(props: {
  label: string;
  name: SettingKey;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const t = useAdminTranslate();
  const previewId = useId();
  const [preview, setPreview] = useState<{ html: string } | { failed: true } | null>(null);
  const [open, setOpen] = useState(false);

  const loadPreview = async (source: string) => {
    try {
      const body = new FormData();
      body.set("source", source);
      const response = await fetch("/admin/markdown-preview", { method: "POST", body });
      if (!response.ok) throw new Error(String(response.status));
      setPreview((await response.json()) as { html: string });
    } catch {
      setPreview({ failed: true });
    }
  };

  return (
    <div>
      <TextAreaField
        label={props.label}
        name={props.name}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        rows={8}
        maxLength={SETTING_LIMITS.markdown}
        hint={t("admin.settings.markdownHint")}
        error={props.error}
        controlClassName="font-mono text-sm"
      />
      <Button
        variant="secondary"
        size="sm"
        className="mt-2"
        aria-expanded={open}
        aria-controls={previewId}
        onClick={() => {
          const next = !open;
          setOpen(next);
          if (next) void loadPreview(props.value);
        }}
      >
        <Eye aria-hidden="true" className="size-4" />
        {open ? t("admin.settings.hidePreview") : t("admin.settings.showPreview")}
      </Button>
      {open ? (
        <Button variant="ghost" size="sm" className="ml-2 mt-2" onClick={() => void loadPreview(props.value)}>
          {t("admin.settings.refreshPreview")}
        </Button>
      ) : null}
      <section
        id={previewId}
        hidden={!open}
        aria-label={t("admin.settings.previewOf", { name: props.label })}
        aria-live="polite"
        className="mt-2 rounded-md border border-dashed border-zinc-300 p-4 text-sm dark:border-zinc-700"
      >
        {preview === null ? (
          <p>{t("admin.settings.previewLoading")}</p>
        ) : "failed" in preview ? (
          <p className="text-red-700 dark:text-red-300">{t("admin.settings.previewFailed")}</p>
        ) : (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered by renderMarkdown (no raw HTML, safe links)
          <div className="prose-content" dangerouslySetInnerHTML={{ __html: preview.html }} />
        )}
      </section>
    </div>
  );
}

import { type ReactNode, useId, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/**
 * The amber box of an editor's notice that waits for the admin's choice (a copy this browser kept, a save made
 * elsewhere): a region named by its title, whose title and text are announced when it appears (it can come while
 * the admin is typing), then its buttons and whatever follows.
 */
export function NoticePanel({
  title,
  text,
  actions,
  children,
}: {
  title: string;
  text: string;
  actions: ReactNode;
  children?: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="mb-6 rounded-md border border-amber-600 bg-amber-50 p-4 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-100"
    >
      <div role="alert">
        <h2 id={headingId} className="font-semibold">
          {title}
        </h2>
        <p className="mt-1 text-sm">{text}</p>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">{actions}</div>
      {children}
    </section>
  );
}

/** One field of "see both": its label and the two values. */
export type ComparedField = { key: string; label: string; mine: string; theirs: string };

/**
 * A save made elsewhere while this editor had unsaved changes: keep mine (the next save replaces theirs), take
 * theirs (the changes here are dropped), or see both side by side first. Nothing is chosen for the admin.
 */
export function ConflictChoice({
  text,
  fields,
  onKeepMine,
  onTakeTheirs,
}: {
  /** What was saved elsewhere, and when or where. */
  text: string;
  /** The fields that differ; none: "see both" says both are the same (the other save made the same change). */
  fields: readonly ComparedField[];
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  const t = useAdminTranslate();
  const [showBoth, setShowBoth] = useState(false);
  const actions = (
    <>
      <Button size="sm" onClick={onKeepMine}>
        {t("admin.conflict.keepMine")}
      </Button>
      <Button size="sm" variant="secondary" onClick={onTakeTheirs}>
        {t("admin.conflict.takeTheirs")}
      </Button>
      <Button size="sm" variant="secondary" aria-expanded={showBoth} onClick={() => setShowBoth((open) => !open)}>
        {t("admin.conflict.seeBoth")}
      </Button>
    </>
  );
  return (
    <NoticePanel title={t("admin.conflict.title")} text={text} actions={actions}>
      {showBoth ? (
        fields.length === 0 ? (
          <p className="mt-3 text-sm">{t("admin.conflict.same")}</p>
        ) : (
          <dl className="mt-4 grid gap-4">
            {fields.map((field) => (
              <div key={field.key} className="grid gap-2">
                <dt className="text-sm font-semibold">{field.label}</dt>
                <dd className="grid gap-2 sm:grid-cols-2">
                  {[
                    [t("admin.conflict.yours"), field.mine],
                    [t("admin.conflict.theirs"), field.theirs],
                  ].map(([label, value]) => (
                    <div key={label}>
                      <p className="text-xs font-medium uppercase tracking-wide">{label}</p>
                      <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded border border-amber-600/40 bg-white p-2 font-sans text-sm text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100">
                        {value || "—"}
                      </pre>
                    </div>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        )
      ) : null}
    </NoticePanel>
  );
}

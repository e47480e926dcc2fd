import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import type { ShareLinkSummary } from "#app/domains/shares/share-schema.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { LocalTime } from "./posts/local-time.tsx";

/**
 * A post's or an album's share links (issue 21): make one (with a last day and a password, both optional), copy it
 * once, and the list with each link's state and last use, each revocable. Talks to `path` (`/admin/posts/<id>/shares`,
 * `/admin/albums/<id>/shares`); null: the item is not saved yet.
 */
export function ShareLinks({ path, intro }: { path: string | null; intro: string }) {
  const t = useAdminTranslate();
  const list = useFetcher<{ links: ShareLinkSummary[] }>();
  const write = useFetcher<ActionResult<{ url?: string }>>();
  const result = useResultToast(write.data, t("admin.common.error"));
  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const [made, setMade] = useState<string | null>(null);
  const { load } = list;

  useEffect(() => {
    if (path) void load(path);
  }, [path, load]);
  useEffect(() => {
    if (write.state !== "idle" || !write.data?.ok || !path) return;
    if ("url" in write.data && write.data.url) setMade(write.data.url);
    void load(path);
  }, [write.state, write.data, path, load]);

  if (!path) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-300">{t("admin.shares.unsaved")}</p>;
  }
  const links = list.data?.links ?? [];
  const stateOf = (link: ShareLinkSummary) =>
    link.revokedAt
      ? t("admin.shares.revokedState")
      : link.active
        ? t("admin.shares.active")
        : t("admin.shares.expired");
  return (
    <section
      aria-labelledby="post-share-heading"
      className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <h2 id="post-share-heading" className="text-lg font-semibold">
        {t("admin.shares.heading")}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">{intro}</p>
      <write.Form method="post" action={path} className="mt-3 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <input type="hidden" name="intent" value="create" />
        <TextField
          label={t("admin.shares.expires")}
          name="expires_on"
          type="date"
          hint={t("admin.shares.expiresHint")}
          error={errors.expires_on}
        />
        <TextField
          label={t("admin.shares.password")}
          name="password"
          type="password"
          autoComplete="new-password"
          hint={t("admin.shares.passwordHint")}
          error={errors.password}
        />
        <Button type="submit" disabled={write.state !== "idle"}>
          {t("admin.shares.create")}
        </Button>
      </write.Form>
      {made ? (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <label htmlFor="post-share-new" className="text-sm font-medium">
            {t("admin.shares.newLink")}
          </label>
          <input
            id="post-share-new"
            readOnly
            value={made}
            className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm dark:border-zinc-600 dark:bg-zinc-900"
          />
          <Button
            variant="secondary"
            onClick={async () => {
              // The Clipboard API (as the invites screen uses it; not the visitors' copy helper, which would then
              // be split from their post page into a file of its own); without it the link is selected to copy.
              try {
                await navigator.clipboard.writeText(made);
                toast.success(t("admin.shares.copied"));
              } catch {
                (document.getElementById("post-share-new") as HTMLInputElement | null)?.select();
              }
            }}
          >
            {t("admin.shares.copy")}
          </Button>
        </div>
      ) : null}
      {links.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.shares.none")}</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full min-w-[32rem] text-sm">
            <caption className="sr-only">{t("admin.shares.caption")}</caption>
            <thead>
              <tr className="text-left text-zinc-600 dark:text-zinc-300">
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("admin.shares.column.made")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("admin.shares.column.until")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("admin.shares.column.password")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("admin.shares.column.lastUsed")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("admin.shares.column.state")}
                </th>
                <td />
              </tr>
            </thead>
            <tbody>
              {links.map((link) => (
                <tr key={link.id} className="border-t border-zinc-200 dark:border-zinc-800">
                  <td className="py-1 pr-3">
                    <LocalTime iso={link.createdAt} />
                  </td>
                  <td className="py-1 pr-3">
                    {link.expiresAt ? link.expiresAt.slice(0, 10) : t("admin.shares.noExpiry")}
                  </td>
                  <td className="py-1 pr-3">{link.hasPassword ? t("admin.shares.yes") : t("admin.shares.no")}</td>
                  <td className="py-1 pr-3">
                    {link.lastUsedAt ? <LocalTime iso={link.lastUsedAt} /> : t("admin.shares.never")}
                  </td>
                  <td className="py-1 pr-3">{stateOf(link)}</td>
                  <td className="py-1 text-right">
                    {link.revokedAt ? null : (
                      <write.Form method="post" action={path}>
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="link" value={link.id} />
                        <Button
                          type="submit"
                          variant="secondary"
                          size="sm"
                          aria-label={t("admin.shares.revokeLabel", { date: link.createdAt.slice(0, 10) })}
                        >
                          {t("admin.shares.revoke")}
                        </Button>
                      </write.Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

import { ExternalLink } from "lucide-react";
import { linkAddressKind, linkHref } from "#app/domains/links/link-address.ts";
import { useTranslate } from "#app/web/root-data.ts";

/** `iconSvg`: the icon drawn on the server (`withIconMarkup` in link-icon.server.tsx). */
export type LinkEntry = { id: string; title: string; url: string; icon: string; iconSvg: string };

/**
 * Links to other sites, each with its icon; opened in a new tab without giving that site a handle on this one.
 * A mail or telephone link opens the visitor's mail program or phone instead: no tab, nothing to hand over.
 */
export function LinkList({ links, label }: { links: LinkEntry[]; label?: string }) {
  const t = useTranslate();
  return (
    <ul aria-label={label} className="grid gap-3 sm:grid-cols-2">
      {links.map((link) => {
        const web = linkAddressKind(link.url) === "web";
        return (
          <li key={link.id}>
            <a
              href={linkHref(link.url)}
              target={web ? "_blank" : undefined}
              rel={web ? "noopener noreferrer" : undefined}
              className="flex items-center gap-3 rounded-xl border border-zinc-200 px-4 py-3 font-medium hover:border-indigo-400 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-zinc-800 dark:hover:border-indigo-500 dark:hover:bg-zinc-900"
            >
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own icon's SVG, drawn on the server */}
              <span className="contents" dangerouslySetInnerHTML={{ __html: link.iconSvg }} />
              <span className="min-w-0 flex-1 truncate">{link.title}</span>
              {web ? (
                <>
                  <ExternalLink aria-hidden="true" className="size-4 shrink-0 text-zinc-500 dark:text-zinc-400" />
                  <span className="sr-only">{t("links.newTab")}</span>
                </>
              ) : null}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

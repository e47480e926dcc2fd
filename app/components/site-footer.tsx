import { X } from "lucide-react";
import { useRef } from "react";
import { Link } from "react-router";
import { useRootData, useTranslate } from "#app/web/root-data.ts";
import { MarkdownContent } from "./page-header.tsx";

/**
 * A footer entry that opens its text in a native modal <dialog> (focus moves in, Escape closes,
 * the page behind is inert) and links to the full page. Without JavaScript it is a plain link.
 */
function LegalEntry({ title, html, href }: { title: string; html: string; href: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const t = useTranslate();
  const titleId = `${href.slice(1)}-dialog-title`;
  return (
    <li>
      <a
        href={href}
        className="rounded-sm underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          dialog.current?.showModal();
        }}
      >
        {title}
      </a>
      <dialog ref={dialog} aria-labelledby={titleId} className="legal-dialog">
        <div className="legal-dialog-head">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            className="legal-dialog-close"
            aria-label={t("common.close")}
          >
            <X aria-hidden="true" className="size-5" />
          </button>
        </div>
        <div className="max-h-[60vh] overflow-y-auto px-6 py-4 text-sm">
          <MarkdownContent html={html} />
        </div>
        <div className="legal-dialog-foot">
          <Link to={href} onClick={() => dialog.current?.close()} className="legal-dialog-link">
            {t("footer.readFull")}
          </Link>
        </div>
      </dialog>
    </li>
  );
}

export function SiteFooter() {
  const root = useRootData();
  const t = useTranslate();
  if (!root) return null;
  const { footer } = root;
  return (
    <footer className="border-t border-zinc-200 text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-300">
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div className="max-w-md">
          <p className="font-semibold text-zinc-900 dark:text-zinc-100">{footer.siteName}</p>
          {footer.description ? <p className="mt-1">{footer.description}</p> : null}
          <p className="mt-3">{footer.copyright}</p>
        </div>
        <nav aria-label={t("footer.legal")}>
          <ul className="flex gap-4">
            <LegalEntry title={footer.imprintTitle} html={footer.imprintHtml} href="/legal-notice" />
            <LegalEntry title={footer.privacyTitle} html={footer.privacyHtml} href="/privacy" />
          </ul>
        </nav>
      </div>
    </footer>
  );
}

export function PageHeader({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <header className="mb-10">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {subtitle ? <p className="mt-3 text-lg text-zinc-600 dark:text-zinc-300">{subtitle}</p> : null}
    </header>
  );
}

export function EmptyState({ children }: { children: React.ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-zinc-300 px-6 py-12 text-center text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
      {children}
    </p>
  );
}

/** HTML produced by renderMarkdown on the server, which allows no raw HTML and only safe links. */
export function MarkdownContent({ html }: { html: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by markdown.server.ts (html: false, link allow-list)
  return <div className="prose-content" dangerouslySetInnerHTML={{ __html: html }} />;
}

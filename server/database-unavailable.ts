import appStylesheet from "#app/app.css?url";
import { translatorFor } from "#app/i18n/i18n.server.ts";
import { languageOf, themeOf } from "#app/lib/preferences.ts";

/** How long a browser or client is asked to wait before trying again; a database restart takes seconds. */
const RETRY_AFTER_SECONDS = "5";

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? character,
  );
}

/**
 * The answer while the database cannot be reached: 503 with the reason in the visitor's language. A page load
 * gets a page in the site's look (its stylesheet and the status page's layout; nothing from the database, so
 * neither the site's name nor its header); client navigation gets the text, which the root error boundary
 * shows; the API and clients asking for JSON (the upload forms) a JSON `{ error }`. Never kept by any cache, and never a stack trace.
 */
export function databaseUnavailableResponse(request: Request): Response {
  const { lang } = languageOf(request);
  const t = translatorFor(lang);
  const title = t("error.unavailableTitle");
  const text = t("error.unavailableText");
  const headers = new Headers({ "Cache-Control": "no-store", "Retry-After": RETRY_AFTER_SECONDS });
  const url = new URL(request.url);
  if (url.pathname.endsWith(".data")) {
    headers.set("Content-Type", "text/plain; charset=utf-8");
    return new Response(text, { status: 503, headers });
  }
  const accept = request.headers.get("Accept") ?? "";
  if (url.pathname.startsWith("/api/") || (accept.includes("application/json") && !accept.includes("text/html"))) {
    return Response.json({ error: text }, { status: 503, headers });
  }
  headers.set("Content-Type", "text/html; charset=utf-8");
  // No scripts at all; only the site's own stylesheet.
  headers.set(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
  const theme = themeOf(request) === "light" ? "light" : "dark";
  const again = escapeHtml(`${url.pathname}${url.search}`);
  const html = `<!DOCTYPE html>
<html lang="${lang}" class="${theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(appStylesheet)}">
</head>
<body class="min-h-screen bg-white font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
<main id="main" class="mx-auto w-full max-w-5xl flex-1 px-4 py-10 sm:px-6">
<section class="mx-auto max-w-xl py-16 text-center">
<p class="text-sm font-semibold tracking-widest text-indigo-700 dark:text-indigo-300">503</p>
<h1 class="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">${escapeHtml(title)}</h1>
<p class="mt-4 text-zinc-600 dark:text-zinc-300">${escapeHtml(text)}</p>
<a href="${again}" class="mt-8 inline-block rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500">${escapeHtml(t("error.tryAgain"))}</a>
</section>
</main>
</body>
</html>
`;
  return new Response(request.method === "HEAD" ? null : html, { status: 503, headers });
}

import { redirect } from "react-router";
import { z } from "zod";
import { isLanguage } from "#app/i18n/i18n.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { isTheme, LANGUAGE_COOKIE, preferenceCookie, THEME_COOKIE } from "#app/lib/preferences.ts";
import { safeRedirectPath } from "#app/lib/redirect.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import type { Route } from "./+types/api.preferences";

const preferencesForm = z.object({
  theme: z.string().optional(),
  lang: z.string().optional(),
  redirectTo: z.string().optional(),
});

/** The theme and language switches without JavaScript: set the cookie, go back. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = preferencesForm.safeParse(await readForm(request));
  if (!parsed.success) return new Response("Invalid preferences form", { status: 400 });
  const { theme, lang, redirectTo } = parsed.data;
  if ((theme !== undefined && !isTheme(theme)) || (lang !== undefined && !isLanguage(lang))) {
    return new Response("Theme must be light or dark; language must be en or de.", { status: 400 });
  }
  const secure = runtimeOf(context).env.baseUrl.startsWith("https://");
  const headers = new Headers();
  if (theme) headers.append("Set-Cookie", preferenceCookie(THEME_COOKIE, theme, secure));
  if (lang) headers.append("Set-Cookie", preferenceCookie(LANGUAGE_COOKIE, lang, secure));
  let target = safeRedirectPath(redirectTo, "/");
  if (lang) {
    const url = new URL(target, "http://local");
    if (url.searchParams.has("lang")) url.searchParams.set("lang", lang);
    target = `${url.pathname}${url.search}${url.hash}`;
  }
  return redirect(target, { status: 303, headers });
}

export function loader() {
  return redirect("/");
}

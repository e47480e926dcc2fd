import { Moon, Sun } from "lucide-react";
import { useLocation, useNavigate, useRevalidator } from "react-router";
import type { Language } from "#app/i18n/i18n.ts";
import { LANGUAGE_COOKIE, THEME_COOKIE, type Theme } from "#app/lib/preferences.ts";
import { useRootData, useTranslate } from "#app/lib/root-data.ts";

const FADE_OUT_MS = 150;
const FADE_BACK_MS = 50;

function rememberPreference(name: string, value: string) {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  // biome-ignore lint/suspicious/noDocumentCookie: a plain preference cookie the server reads on first render
  document.cookie = `${name}=${value}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}

/** Spec §4: fade to 0.8, apply after 150 ms, back to full opacity 50 ms later. */
function fadeAndApply(apply: () => Promise<void> | void) {
  const body = document.body;
  body.style.opacity = "0.8";
  window.setTimeout(async () => {
    try {
      await apply();
    } finally {
      window.setTimeout(() => {
        body.style.opacity = "1";
      }, FADE_BACK_MS);
    }
  }, FADE_OUT_MS);
}

function usePreferenceForm() {
  const location = useLocation();
  const revalidator = useRevalidator();
  const redirectTo = `${location.pathname}${location.search}${location.hash}`;
  return { redirectTo, revalidate: () => revalidator.revalidate() };
}

const buttonClass =
  "inline-flex h-10 min-w-10 items-center justify-center gap-1 rounded-md px-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-200 dark:hover:bg-zinc-800";

export function ThemeToggle() {
  const root = useRootData();
  const t = useTranslate();
  const { redirectTo, revalidate } = usePreferenceForm();
  const current: Theme = root?.theme ?? "dark";
  const next: Theme = current === "dark" ? "light" : "dark";
  return (
    <form
      method="post"
      action="/api/preferences"
      onSubmit={(event) => {
        event.preventDefault();
        fadeAndApply(async () => {
          rememberPreference(THEME_COOKIE, next);
          document.documentElement.classList.remove(current);
          document.documentElement.classList.add(next);
          // The theme is applied above; refreshing the root data (toggle icon and label) must not hold the
          // page dimmed beyond the 50 ms of spec §4 while it waits for the server.
          void revalidate();
        });
      }}
    >
      <input type="hidden" name="theme" value={next} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        className={buttonClass}
        aria-label={next === "light" ? t("theme.toLight") : t("theme.toDark")}
      >
        {current === "dark" ? (
          <Sun aria-hidden="true" className="size-5" />
        ) : (
          <Moon aria-hidden="true" className="size-5" />
        )}
      </button>
    </form>
  );
}

export function LanguageSwitch() {
  const root = useRootData();
  const t = useTranslate();
  const { redirectTo, revalidate } = usePreferenceForm();
  const navigate = useNavigate();
  const location = useLocation();
  const next: Language = root?.lang === "de" ? "en" : "de";
  return (
    <form
      method="post"
      action="/api/preferences"
      onSubmit={(event) => {
        event.preventDefault();
        fadeAndApply(async () => {
          rememberPreference(LANGUAGE_COOKIE, next);
          const params = new URLSearchParams(location.search);
          if (params.has("lang")) {
            // A `?lang=` in the address would otherwise keep winning over the new choice.
            params.set("lang", next);
            await navigate({ search: `?${params}`, hash: location.hash }, { replace: true, preventScrollReset: true });
          } else {
            await revalidate();
          }
        });
      }}
    >
      <input type="hidden" name="lang" value={next} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        className={buttonClass}
        // The visible "DE"/"EN" is part of the name (WCAG 2.5.3, label in name).
        aria-label={`${next.toUpperCase()}: ${t("language.switchLabel")}`}
        lang={next}
      >
        <span aria-hidden="true">{next.toUpperCase()}</span>
      </button>
    </form>
  );
}

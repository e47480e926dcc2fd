import { Moon, Sun } from "lucide-react";
import { useLocation, useNavigate, useRevalidator } from "react-router";
import type { Language } from "#app/i18n/i18n.ts";
import { LANGUAGE_COOKIE, THEME_COOKIE, type Theme } from "#app/lib/preferences.ts";
import { useRootData, useShownTheme, useTranslate } from "#app/web/root-data.ts";

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

function languageShown(lang: Language, timeoutMs = 3000): Promise<void> {
  const started = performance.now();
  return new Promise((resolve) => {
    const check = () => {
      if (document.documentElement.lang === lang || performance.now() - started > timeoutMs) resolve();
      else requestAnimationFrame(check);
    };
    check();
  });
}

/**
 * A switch is a form that works without JavaScript (the server sets the cookie and sends the visitor back);
 * with JavaScript it fades and applies in place.
 */
function PreferenceForm(props: {
  name: "theme" | "lang";
  value: string;
  apply: () => Promise<void> | void;
  children: React.ReactNode;
}) {
  const location = useLocation();
  return (
    <form
      method="post"
      action="/api/preferences"
      onSubmit={(event) => {
        event.preventDefault();
        fadeAndApply(props.apply);
      }}
    >
      <input type="hidden" name={props.name} value={props.value} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}${location.hash}`} />
      {props.children}
    </form>
  );
}

// Its class list is in app.css (`.header-toggle`): every page loads this file.
const buttonClass = "header-toggle";

export function ThemeToggle() {
  const t = useTranslate();
  const revalidator = useRevalidator();
  const current: Theme = useShownTheme();
  const next: Theme = current === "dark" ? "light" : "dark";
  return (
    <PreferenceForm
      name="theme"
      value={next}
      apply={() => {
        rememberPreference(THEME_COOKIE, next);
        document.documentElement.classList.remove(current);
        document.documentElement.classList.add(next);
        // The theme is applied above; refreshing the root data (toggle icon and label) must not hold the
        // page dimmed beyond the 50 ms of spec §4 while it waits for the server.
        void revalidator.revalidate();
      }}
    >
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
    </PreferenceForm>
  );
}

export function LanguageSwitch() {
  const root = useRootData();
  const t = useTranslate();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const location = useLocation();
  const next: Language = root?.lang === "de" ? "en" : "de";
  return (
    <PreferenceForm
      name="lang"
      value={next}
      apply={async () => {
        rememberPreference(LANGUAGE_COOKIE, next);
        const params = new URLSearchParams(location.search);
        if (params.has("lang")) {
          // A `?lang=` in the address would otherwise keep winning over the new choice.
          params.set("lang", next);
          await navigate({ search: `?${params}`, hash: location.hash }, { replace: true, preventScrollReset: true });
        } else {
          await revalidator.revalidate();
        }
        // React commits the new data in a transition, possibly a few frames after it arrived:
        // the 50 ms back to full opacity count from when the page is really German (or English).
        await languageShown(next);
      }}
    >
      <button
        type="submit"
        className={buttonClass}
        // The visible "DE"/"EN" is part of the name (WCAG 2.5.3, label in name).
        aria-label={`${next.toUpperCase()}: ${t("language.switchLabel")}`}
        lang={next}
      >
        <span aria-hidden="true">{next.toUpperCase()}</span>
      </button>
    </PreferenceForm>
  );
}

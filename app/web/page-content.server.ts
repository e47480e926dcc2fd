import type { RouterContextProvider } from "react-router";
import { localizedSetting } from "#app/domains/settings/settings.ts";
import type { LocalizedSettingKey } from "#app/domains/settings/settings-defaults.ts";
import { renderMarkdown } from "#app/lib/markdown.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { requestSettings } from "./site-context.server.ts";

/** What a page needs from the settings: its texts in the visitor's language, Markdown already rendered. */
export async function pageTexts<Plain extends LocalizedSettingKey, Rich extends LocalizedSettingKey = never>(
  request: Request,
  context: Readonly<RouterContextProvider>,
  plain: readonly Plain[],
  markdown: readonly Rich[] = [],
): Promise<Record<Plain, string> & Record<Rich, string>> {
  const { lang } = languageOf(request);
  const settings = await requestSettings(context);
  const texts = {} as Record<Plain, string> & Record<Rich, string>;
  for (const key of plain) (texts as Record<string, string>)[key] = localizedSetting(settings, key, lang);
  for (const key of markdown)
    (texts as Record<string, string>)[key] = renderMarkdown(localizedSetting(settings, key, lang));
  return texts;
}

import { useEffect, useId, useState } from "react";
import { Form, Link, useNavigate } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { inputClass } from "#app/components/ui/field.tsx";
import type { SettingGroupId } from "#app/domains/settings/setting-registry.ts";
import { settingGroups } from "#app/domains/settings/settings-form.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/** The address of a section of the settings screen: one group at a time, so that a link or Back returns to it. */
export function sectionHref(id: SettingGroupId): string {
  return `?section=${id}`;
}

/** The section an address names; the first when it names none (or one that does not exist). */
export function sectionOf(search: URLSearchParams): SettingGroupId {
  const wanted = search.get("section");
  return settingGroups.find((group) => group.id === wanted)?.id ?? settingGroups[0]?.id ?? "identity";
}

/**
 * The settings' sections: a wrapping list that stays in view above the form on a wide screen, a select on a phone. Both
 * are ordinary links and a GET form, so they work before JavaScript (the select's "Show" button is for then).
 */
export function SectionNav({ active }: { active: SettingGroupId }) {
  const t = useAdminTranslate();
  const navigate = useNavigate();
  const selectId = useId();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const title = (id: SettingGroupId) => t(`admin.settings.group.${id}` as AdminMessageKey);
  return (
    // Above the form, it stays in view as a long section scrolls under it (app.css keeps focus clear of it).
    <nav
      aria-label={t("admin.settings.groupsNav")}
      className="settings-sections md:sticky md:top-0 md:z-10 md:-mx-1 md:bg-white/95 md:px-1 md:py-2 md:dark:bg-zinc-950/95"
    >
      <Form method="get" className="flex items-end gap-2 md:hidden">
        <div className="flex-1">
          <label htmlFor={selectId} className="block text-sm font-medium">
            {t("admin.settings.sectionSelect")}
          </label>
          <select
            id={selectId}
            name="section"
            value={active}
            className={inputClass}
            onChange={(event) => navigate(sectionHref(event.target.value as SettingGroupId))}
          >
            {settingGroups.map(({ id }) => (
              <option key={id} value={id}>
                {title(id)}
              </option>
            ))}
          </select>
        </div>
        {hydrated ? null : (
          <Button type="submit" variant="secondary">
            {t("admin.settings.sectionShow")}
          </Button>
        )}
      </Form>
      <ul className="hidden flex-wrap gap-1 md:flex">
        {settingGroups.map(({ id }) => (
          <li key={id}>
            <Link
              to={sectionHref(id)}
              aria-current={id === active ? "page" : undefined}
              className={`block rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
                id === active
                  ? "bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white"
                  : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white"
              }`}
            >
              {title(id)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

import { Link } from "react-router";
import { adminSections } from "#app/components/admin/admin-sections.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";

export default function AdminDashboard() {
  const t = useAdminTranslate();
  const admin = useAdminData();
  return (
    <div>
      <header className="mb-8">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.heading")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.intro")}</p>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
          {t("admin.signedInAs", { email: admin?.email ?? "" })}
        </p>
      </header>
      <ul className="grid gap-4 sm:grid-cols-2">
        {adminSections.map(({ to, title, text, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="block h-full rounded-xl border border-zinc-200 p-5 hover:border-indigo-400 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-zinc-800 dark:hover:border-indigo-500 dark:hover:bg-zinc-900"
            >
              <span className="flex items-center gap-3">
                <Icon aria-hidden="true" className="size-5 text-indigo-700 dark:text-indigo-300" />
                <span className="font-semibold">{t(title)}</span>
              </span>
              <span className="mt-2 block text-sm text-zinc-600 dark:text-zinc-300">{t(text)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

import { Link } from "react-router";
import { useRootData, useTranslate } from "#app/web/root-data.ts";

export function StatusPage({ status, title, text }: { status: number; title: string; text: string }) {
  const t = useTranslate();
  const hasRoot = useRootData() !== undefined;
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <p className="text-sm font-semibold tracking-widest text-indigo-700 dark:text-indigo-300">{status}</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      <p className="mt-4 text-zinc-600 dark:text-zinc-300">{text}</p>
      <Link
        to="/"
        className="mt-8 inline-block rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        {hasRoot ? t("notFound.back") : "Back to the start page"}
      </Link>
    </section>
  );
}

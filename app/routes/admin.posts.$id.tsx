import { useRef } from "react";
import { data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { PostEditor } from "#app/components/admin/posts/post-editor.tsx";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminAction } from "#app/web/admin-action.server.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.posts.$id";
import { doneMessageKey, editorStatus, loadPostEditor, runEditorAction } from "./admin.posts.$id.server.ts";

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  const t = adminTranslatorFor(languageOf(request).lang);
  const editor = await loadPostEditor(runtimeOf(context).database.db, params.id, {
    previewSecret: runtimeOf(context).previewSecret,
  });
  if (!editor) throw data(t("admin.posts.notFound"), { status: 404 });
  const done = doneMessageKey(url.searchParams.get("done"));
  return { ...editor, done: done ? t(done) : null };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.posts");
}

export function action(args: Route.ActionArgs) {
  return adminAction(args, async ({ admin, t, db, runtime }) => {
    const form = await readForm(args.request);
    const result = await runEditorAction(db, admin, args.params.id, form, { t, storage: runtime.storage });
    // The editor's refusal carries what it needs to show the form again (its own fields), so it is answered as is.
    if (!result.ok) return data({ ...result, ok: false as const }, { status: editorStatus(result) });
    if (result.redirectTo) throw redirect(result.redirectTo, 303);
    return result;
  });
}

/** A picture upload or preview never reloads the post: only the editor's own saves do. */
export function shouldRevalidate({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction && /^\/admin\/(uploads|posts\/(preview|autosave))/.test(formAction)) return false;
  return defaultShouldRevalidate;
}

export default function AdminPostEditor({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const { post } = loaderData;
  // The editor's own refusal (with its fields); a refusal of the admin-action contract has none to show.
  const refused = actionData && !actionData.ok && "intent" in actionData ? actionData : null;
  // The editor opens afresh on what the server stored after one of its own saves (or status changes) only: any
  // other reload of the page's data (the theme switched, say) must not replace text being typed, even when the
  // post was saved elsewhere meanwhile (the editor announces that itself). So an own save opens it afresh once,
  // when the page's data shows that save or a later one (the action's answer can come before the data loaded after
  // it, and that data can hold a save made elsewhere right after this one: the text here was saved, so theirs is
  // shown in place, as the editor does for any save elsewhere while nothing is unsaved).
  // `ownSave.shown`: that save has opened the editor afresh already (the action's answer stays the same until the
  // next action, and must not open it again on a later reload).
  const ownSave = useRef<{ at: string; shown: boolean } | null>(null);
  const shownSave = useRef<string | null>(null);
  const saved = actionData?.ok && "updatedAt" in actionData ? actionData.updatedAt : null;
  if (saved && saved !== ownSave.current?.at) ownSave.current = { at: saved, shown: false };
  if (
    ownSave.current &&
    !ownSave.current.shown &&
    post &&
    Date.parse(post.updatedAt) >= Date.parse(ownSave.current.at)
  ) {
    shownSave.current = post.updatedAt;
    ownSave.current.shown = true;
  }
  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">
          {post ? t("admin.posts.editor.heading") : t("admin.posts.editor.newHeading")}
        </h1>
        {post ? <p className="mt-2 text-zinc-600 dark:text-zinc-300">{post.title}</p> : null}
      </header>
      <ActionMessage result={actionData ?? (loaderData.done ? { ok: true, message: loaderData.done } : undefined)} />
      <PostEditor
        key={`${post?.id ?? "new"}|${shownSave.current ?? "opened"}`}
        post={post}
        values={refused?.values ?? loaderData.values}
        serverValues={loaderData.values}
        knownTags={loaderData.knownTags}
        groups={loaderData.groups}
        previewLinks={loaderData.previewLinks}
        fieldErrors={refused?.fieldErrors ?? {}}
        conflict={refused?.conflict ?? null}
      />
    </div>
  );
}

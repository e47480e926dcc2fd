import { data } from "react-router";
import { z } from "zod";
import { SETTING_LIMITS } from "#app/domains/settings/settings-form.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { renderMarkdown } from "#app/lib/markdown.server.ts";
import { textSchema } from "#app/lib/text-schema.ts";
import { adminAction } from "#app/web/admin-action.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.markdown-preview";

const previewForm = z.object({
  source: textSchema({ max: SETTING_LIMITS.markdown, multiline: true, trim: false }),
});

/** Renders Markdown exactly as the public pages do, for the admin's preview. POST only: the text can be long. */
export function action(args: Route.ActionArgs) {
  return adminAction(args, async () => {
    const parsed = previewForm.safeParse(await readForm(args.request));
    if (!parsed.success)
      return data({ error: "The text is missing, too long or holds control characters." }, { status: 400 });
    return Response.json({ html: renderMarkdown(parsed.data.source) }, { headers: { "Cache-Control": "no-store" } });
  });
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}

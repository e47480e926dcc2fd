import { data } from "react-router";
import { z } from "zod";
import { renderPostBody } from "#app/domains/posts/post-body.server.ts";
import { BODY_MAX } from "#app/domains/posts/post-schema.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { textSchema } from "#app/lib/text-schema.ts";
import { adminAction } from "#app/web/admin-action.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.posts.preview";

const previewForm = z.object({
  source: textSchema({ max: BODY_MAX, multiline: true, trim: false }),
  lang: z.enum(["en", "de"]).catch("en"),
});

/**
 * The post editor's live preview: the body rendered by the public pages' own renderer (highlighting, heading
 * anchors, pictures by `image:<id>`), so the admin sees what visitors will. POST only: the text can be long.
 */
export function action(args: Route.ActionArgs) {
  return adminAction(args, async ({ db }) => {
    const parsed = previewForm.safeParse(await readForm(args.request));
    if (!parsed.success)
      return data({ error: "The text is missing, too long or holds control characters." }, { status: 400 });
    const body = await renderPostBody(parsed.data.source, parsed.data.lang, { db: db });
    return Response.json({ html: body.html }, { headers: { "Cache-Control": "no-store" } });
  });
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}

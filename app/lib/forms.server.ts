import { data } from "react-router";

import { MAX_BODY_BYTES } from "./upload-limit.ts";

/** The submitted form as plain strings; a body that is not a form is a 400, never a crash. */
export async function readForm(request: Request): Promise<Record<string, string>> {
  // The HTTP server refuses larger bodies already; this keeps a form read bounded wherever it is called from.
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES) {
    throw data({ error: "The request body is too large (at most 1 MB)." }, { status: 413 });
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data({ error: "The request body is not a valid form." }, { status: 400 });
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of form) {
    if (typeof value !== "string") throw data({ error: `The field ${key} must be text.` }, { status: 400 });
    fields[key] = value;
  }
  return fields;
}

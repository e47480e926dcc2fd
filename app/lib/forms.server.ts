import { data } from "react-router";

/** The submitted form as plain strings; a body that is not a form is a 400, never a crash. */
export async function readForm(request: Request): Promise<Record<string, string>> {
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

import type { Kysely } from "kysely";
import { data, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { isDatabaseFull } from "#app/db/disk-full.server.ts";
import type { Database } from "#app/db/schema.ts";
import { type ReceivedUpload, storageRefusal, UploadError, uploadTempDir } from "#app/domains/media/upload.server.ts";
import { type AdminTranslate, adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import type { Refused } from "#app/lib/action-result.ts";
import { fieldErrorsOf, translateFieldErrors } from "#app/lib/field-errors.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import type { SessionUser } from "#app/lib/request-context.ts";
import { receiveLimits, type UploadHandle } from "#app/lib/upload-limit.ts";
import type { Runtime } from "#app/runtime/runtime-context.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { receiveUpload } from "./receive-upload.server.ts";
import { requireAdmin } from "./session.server.ts";

/*
 * The one contract of an admin write (every admin action and upload route goes through `adminAction`):
 * 1. who: `requireAdmin` (visitors to sign in, non-admins 403) names the admin the audit entry is written for;
 * 2. what: `call.parse` checks the input with zod and refuses it with field errors in the admin's language;
 * 3. the change: the domain writes it and its audit entry in one transaction (`recordAudit(trx, …)`), so a
 *    refused or failed write leaves neither;
 * 4. the answer: one `ActionResult<T>`. A refusal is thrown as an `AdminRefusal` (or is a full or read-only disk,
 *    the database's full disk included) and answered with its status and message; anything else is a fault and goes
 *    on to the error handler.
 */

/** Why an admin write was refused, with the HTTP status it is answered with. The only way an admin action refuses. */
export class AdminRefusal extends Error {
  override name = "AdminRefusal";
  readonly status: number;
  readonly details: Omit<Refused, "ok" | "message">;
  constructor(status: number, message: string, details: Omit<Refused, "ok" | "message"> = {}) {
    super(message);
    this.status = status;
    this.details = details;
  }

  /** A refused answer made elsewhere (a shared mapping of a domain's refusal) as the refusal to throw. */
  static of(status: number, { ok: _refused, message, ...details }: Refused): AdminRefusal {
    return new AdminRefusal(status, message, details);
  }

  /** The answer's body: the shared `ActionResult`'s refused side. */
  get result(): Refused {
    return { ok: false, message: this.message, ...this.details };
  }
}

/** How a zod refusal reads: the form's message, and (unless `fieldErrors` is false) the message per field. */
export type InputRefusal = {
  message: string;
  status?: number;
  /** false: the message only; else the parameters per field's message (a limit to name), if any. */
  fieldErrors?: false | Record<string, Record<string, string | number>>;
};

/** What an admin action is given: the admin, their language's words, the runtime, and the input check. */
export type AdminCall = {
  admin: SessionUser;
  t: AdminTranslate;
  runtime: Runtime;
  db: Kysely<Database>;
  request: Request;
  context: Readonly<RouterContextProvider>;
  /** The input as `schema` reads it, or an `AdminRefusal` (400 unless told) as `refusal` describes it. */
  parse: <S extends z.ZodType>(schema: S, input: unknown, refusal: InputRefusal) => z.output<S>;
};

type ActionArgs = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

/**
 * Runs one admin write under the contract above. `answer` turns a refusal into a response where the default
 * (`data(result, { status })`, read as JSON by fetchers and uploads alike) does not fit, e.g. a plain form post.
 */
export async function adminAction<R>(
  { request, url, context }: ActionArgs,
  run: (call: AdminCall) => Promise<R>,
  answer: (refusal: AdminRefusal) => Response | undefined = () => undefined,
) {
  const admin = requireAdmin(url, context);
  const t = adminTranslatorFor(languageOf(request).lang);
  const runtime = runtimeOf(context);
  const parse: AdminCall["parse"] = (schema, input, refusal) => {
    const parsed = schema.safeParse(input);
    if (parsed.success) return parsed.data;
    const fieldErrors =
      refusal.fieldErrors === false
        ? {}
        : { fieldErrors: translateFieldErrors(t, fieldErrorsOf(parsed.error), refusal.fieldErrors) };
    throw new AdminRefusal(refusal.status ?? 400, refusal.message, fieldErrors);
  };
  try {
    return await run({ admin, t, runtime, db: runtime.database.db, request, context, parse });
  } catch (error) {
    const refusal = refusalOf(error, t);
    if (!refusal) throw error;
    return answer(refusal) ?? data(refusal.result, { status: refusal.status });
  }
}

/**
 * A thrown refusal as it is answered: ours as it is, a full or read-only disk as 507/503 (the database's disk
 * full too: its transaction kept nothing, so the admin is told to make room, not that the site broke); else null
 * (a fault).
 */
function refusalOf(error: unknown, t: AdminTranslate): AdminRefusal | null {
  if (error instanceof AdminRefusal) return error;
  const full = storageRefusal(error);
  if (full) return new AdminRefusal(full.status, t(full.messageKey));
  if (!isDatabaseFull(error)) return null;
  const reason = error instanceof Error ? error.message : String(error);
  getLogger().error(`Admin write refused: the server's storage is full, the database could not write (${reason})`);
  return new AdminRefusal(507, t("admin.common.storageFull"));
}

/**
 * An upload route's body, streamed to temp files within the route's own limits (its `handle`), given to `run` and
 * removed afterwards whatever happened. A body `receiveUpload` refuses (too big, not multipart, broken) is refused
 * with its status in the words `describe` gives; a full or read-only disk is answered by `adminAction`.
 */
export async function withUpload<R>(
  { request, runtime }: Pick<AdminCall, "request" | "runtime">,
  options: { handle: UploadHandle; fields?: string[]; describe: (error: UploadError, maxBytes: number) => string },
  run: (upload: ReceivedUpload) => Promise<R>,
): Promise<R> {
  const limits = receiveLimits(options.handle.upload.fileLimits, runtime.env);
  let upload: ReceivedUpload;
  try {
    upload = await receiveUpload(request, {
      ...limits,
      tempDir: uploadTempDir(runtime.env.dataDir),
      fields: options.fields,
    });
  } catch (error) {
    if (error instanceof UploadError) throw new AdminRefusal(error.status, options.describe(error, limits.maxBytes));
    throw error;
  }
  try {
    return await run(upload);
  } finally {
    await upload.cleanup();
  }
}

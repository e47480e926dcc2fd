import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { recordAudit } from "#app/domains/audit/audit.server.ts";
import { createDownloadBackup } from "#app/domains/backup/schedule.server.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.backup";

/**
 * POST /admin/backup: a fresh backup archive as a download, for admins only (the admin layout's middleware
 * refuses anyone else's post before this runs; `requireAdmin` here also names the admin for the audit log).
 * Not an `adminAction`: its answer is a file, not an ActionResult, and a failure (a full disk too) is the error page.
 * The archive is written in full before the answer starts, so a failure is an error page, never a cut file;
 * it is removed from the disk at once and read from its open handle.
 */
export async function action({ url, context }: Route.ActionArgs) {
  const admin = requireAdmin(url, context);
  const { database, env, storage } = runtimeOf(context);
  const backup = await createDownloadBackup({ database, dataDir: env.dataDir, storage });
  const handle = await fsp.open(backup.file, "r");
  await fsp.rm(backup.file, { force: true });
  const name = `vitrine-backup-${backup.manifest.createdAt.replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z")}.tar.gz`;
  await recordAudit(database.db, admin, {
    action: "backup.download",
    target: name,
    newValue: `${backup.size} bytes, ${backup.manifest.counts.files} files`,
  });
  const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Length": String(backup.size),
      "Content-Disposition": `attachment; filename="${path.basename(name)}"`,
      "Cache-Control": "no-store",
    },
  });
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin), never a 400 from the router. */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}

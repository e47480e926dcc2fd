import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import { Readable } from "node:stream";
import * as tar from "tar";
import { type BackupManifest, MANIFEST_NAME } from "./backup.server.ts";

/** A restore refused before anything was written; the message says why. */
export class RestoreError extends Error {
  override name = "RestoreError";
}

// Table names as the database has them: better-auth's two-factor table is `twoFactor`.
const ENTRY_PATH = /^(database\/[A-Za-z_]+\.jsonl|storage\/(public|private)\/[A-Za-z0-9_][A-Za-z0-9._/-]*)$/;

export function damaged(detail: string): RestoreError {
  return new RestoreError(`The archive is damaged or not a Vitrine backup (${detail}); nothing was restored.`);
}

function parseManifest(text: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(text) as BackupManifest;
  } catch {
    throw damaged("its manifest is not JSON");
  }
  const valid =
    manifest?.format === "vitrine-backup" &&
    typeof manifest.formatVersion === "number" &&
    Array.isArray(manifest.entries) &&
    Array.isArray(manifest.schema?.migrations) &&
    manifest.entries.every(
      (entry) =>
        typeof entry?.path === "string" &&
        ENTRY_PATH.test(entry.path) &&
        !entry.path.split("/").includes("..") &&
        typeof entry.size === "number" &&
        typeof entry.sha256 === "string",
    );
  if (!valid) throw damaged("its manifest is not that of a Vitrine backup");
  return manifest;
}

/**
 * Reads the whole archive once: every entry must be a plain file or folder, listed in the manifest with the
 * same size and SHA-256, and every file the manifest lists must be there. Returns the manifest.
 */
export async function verifyBackup(archive: string): Promise<BackupManifest> {
  try {
    const info = await fsp.stat(archive);
    if (!info.isFile()) throw new RestoreError(`${archive} is not a file; nothing was restored.`);
  } catch (error) {
    if (error instanceof RestoreError) throw error;
    throw new RestoreError(`Cannot read ${archive}: ${(error as Error).message}; nothing was restored.`);
  }
  const found = new Map<string, { size: number; sha256: string }>();
  const problems: string[] = [];
  let manifestText: string | null = null;
  const pending: Promise<void>[] = [];
  try {
    await tar.list({
      file: archive,
      strict: true,
      onReadEntry: (entry) => {
        const name = entry.path.replace(/\/$/, "");
        if (entry.type === "Directory") {
          if (!/^(database|storage)(\/|$)/.test(name)) problems.push(`unexpected folder ${name}`);
          entry.resume();
          return;
        }
        if (entry.type !== "File" && entry.type !== "OldFile") {
          problems.push(`${name} is a ${entry.type}, not a file`);
          entry.resume();
          return;
        }
        if (found.has(name) || (name === MANIFEST_NAME && manifestText !== null)) problems.push(`${name} twice`);
        const hash = createHash("sha256");
        const chunks: Buffer[] = [];
        let size = 0;
        pending.push(
          new Promise<void>((resolve, reject) => {
            entry.on("data", (chunk: Buffer) => {
              hash.update(chunk);
              size += chunk.length;
              if (name === MANIFEST_NAME) chunks.push(chunk);
            });
            entry.on("end", () => {
              if (name === MANIFEST_NAME) manifestText = Buffer.concat(chunks).toString("utf8");
              else found.set(name, { size, sha256: hash.digest("hex") });
              resolve();
            });
            entry.on("error", reject);
          }),
        );
      },
    });
    await Promise.all(pending);
  } catch (error) {
    throw damaged((error as Error).message);
  }
  if (manifestText === null) throw damaged("it has no manifest");
  const manifest = parseManifest(manifestText);
  if (problems.length > 0) throw damaged(problems.slice(0, 3).join("; "));
  const listed = new Set<string>();
  for (const entry of manifest.entries) {
    listed.add(entry.path);
    const actual = found.get(entry.path);
    if (!actual) throw damaged(`${entry.path} is missing`);
    if (actual.size !== entry.size || actual.sha256 !== entry.sha256) throw damaged(`${entry.path} was altered`);
  }
  const extra = [...found.keys()].find((name) => !listed.has(name));
  if (extra) throw damaged(`${extra} is not in the manifest`);
  return manifest;
}

/**
 * Hands on the archive's files in their order, one at a time: `onFile` gets the entry's name and its body as a
 * stream, and the next file is read only once its promise settles (the archive is read no faster than the bodies
 * are consumed: nothing is held in memory but the chunk under way). What `onFile` leaves unread is skipped.
 * The first failure stops the reading and is the answer.
 */
export function eachArchiveFile(
  archive: string,
  onFile: (name: string, body: Readable) => Promise<void>,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const input = fs.createReadStream(archive);
    const parser = new tar.Parser({ strict: true });
    let failed = false;
    let chain = Promise.resolve();
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      input.destroy();
      reject(error);
    };
    parser.on("entry", (entry: tar.ReadEntry) => {
      chain = chain
        .then(async () => {
          if (!failed && (entry.type === "File" || entry.type === "OldFile")) {
            await onFile(entry.path, Readable.from(entry));
          }
        })
        .catch(fail)
        .finally(() => entry.resume());
    });
    parser.on("error", fail);
    parser.on("end", () => {
      chain.then(() => {
        if (!failed) resolve();
      }, fail);
    });
    input.on("error", fail);
    input.pipe(parser);
  });
}

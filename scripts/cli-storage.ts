// The command line's file storage: the storage the backup commands read and write, and `storage move`.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { bucketProblem } from "#app/domains/media/s3-storage.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { type CopySummary, copyAllFiles } from "#app/domains/media/storage-copy.server.ts";
import { type Env, EnvError, parseEnv, parseStorageUrl } from "#app/lib/env.server.ts";
import { checkStorage, createStorage } from "#app/runtime/storage-choice.server.ts";

type StorageChoice = Pick<Env, "storage">;

export type OpenedStorage = {
  storage: FileStorage;
  /** How a message names it, at the start of a sentence: "The bucket …", "The data folder's storage (…)". */
  name: string;
  close(): void;
};

/** How a message names a storage, at the start of a sentence; never with the key pair. */
export function storageName(choice: StorageChoice): string {
  if (choice.storage.kind === "local") return `The data folder's storage (${choice.storage.root})`;
  const { bucket, prefix, endpoint } = choice.storage.location;
  return `The bucket "${bucket}"${prefix ? ` (folder "${prefix}")` : ""} at ${endpoint ?? "AWS S3"}`;
}

const lower = (name: string) => name.replace(/^The /, "the ");

/**
 * The storage a configuration names, for commands that only read and write files: a bucket that does not answer
 * stops the command with one line (as it stops the server's start). Nothing is signed with it, so its signing
 * secret is a throwaway one.
 */
export async function openStorage(choice: StorageChoice): Promise<OpenedStorage> {
  await checkStorage(choice);
  const storage = createStorage(choice, randomBytes(32).toString("base64url"));
  return {
    storage,
    name: storageName(choice),
    close: () => (storage as FileStorage & { close?: () => void }).close?.(),
  };
}

/** `--to`'s storage: `local` (DATA_DIR/storage) or an s3:// URL as STORAGE_URL takes it, with the same key pair. */
async function targetOf(env: Env, to: string): Promise<StorageChoice> {
  if (to === "local") {
    if (env.storage.kind === "local") {
      throw new EnvError(
        "The files are on the local disk already (STORAGE_URL is not set): nothing to move. To bring them back from a bucket, run this with STORAGE_URL set to it.",
      );
    }
    return { storage: { kind: "local", root: path.join(env.dataDir, "storage") } };
  }
  const settings = parseStorageUrl(to);
  if (typeof settings === "string") throw new EnvError(`--to ${settings}`);
  // The key pair comes from the environment, checked as the server checks it.
  const { storage } = parseEnv({ ...process.env, STORAGE_URL: to });
  if (storage.kind !== "s3") throw new EnvError("--to must be an s3:// URL or local");
  const same = (choice: StorageChoice) =>
    choice.storage.kind === "s3" &&
    choice.storage.location.bucket === settings.bucket &&
    choice.storage.location.prefix === settings.prefix &&
    choice.storage.location.endpoint === settings.endpoint;
  if (same(env)) throw new EnvError(`The site keeps its files in ${lower(storageName(env))} already: nothing to move.`);
  const problem = await bucketProblem(storage.location);
  if (problem) throw new EnvError(`Cannot copy into --to: ${problem}. Nothing was copied.`);
  return { storage };
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function nextSteps(to: string, source: string, toLocal: boolean): string {
  if (toLocal) {
    return [
      "Next: stop the site, run this command once more (it copies only what is new or changed), then remove",
      "STORAGE_URL from the server's environment and start it. The bucket's files stay where they are: remove them",
      "once the site runs well from the disk.",
    ].join("\n");
  }
  return [
    "Next: stop the site, run this command once more (it copies only what is new or changed), then set in the",
    "server's environment",
    `  STORAGE_URL=${to}`,
    "  AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (the key pair used here)",
    `and start it. ${source} stays as it is: remove its files once the site runs well from the bucket.`,
  ].join("\n");
}

function report(summary: CopySummary): string {
  const lines = [
    `${summary.copied} copied (${formatBytes(summary.bytesCopied)}), ${summary.alreadyThere} already there, ${summary.failed.length} failed` +
      (summary.gone > 0 ? `, ${summary.gone} removed by the site meanwhile` : "") +
      ` (of ${summary.total} files).`,
  ];
  if (summary.stopped) lines.push(`Stopped early: ${summary.stopped}.`);
  for (const failure of summary.failed.slice(0, 10)) lines.push(`  not copied: ${failure.key}: ${failure.reason}`);
  if (summary.failed.length > 10) lines.push(`  … and ${summary.failed.length - 10} more`);
  return lines.join("\n");
}

/**
 * `storage move --to …`: copies every file of the site's storage (DATA_DIR/storage, or the bucket of STORAGE_URL)
 * into the other one, leaving the source as it is; resumable by running it again. Progress and the summary go to
 * stderr. Exit code 0 only when every file is in the target.
 */
export async function moveStorage(env: Env, to: string, write: (text: string) => void): Promise<number> {
  const targetChoice = await targetOf(env, to);
  const source = await openStorage(env);
  const target = await openStorage(targetChoice);
  try {
    let lastLine = 0;
    const summary = await copyAllFiles({
      from: source.storage,
      to: target.storage,
      onListed: ({ total, bytes }) =>
        write(
          `Copying ${total} files (${formatBytes(bytes)}) from ${lower(source.name)} to ${lower(target.name)}; files already there with the same size are skipped.\n`,
        ),
      onProgress: ({ done, total, bytesDone, bytesTotal }) => {
        // The first file, then at most a line a second, and the last.
        if (done !== 1 && done !== total && Date.now() - lastLine < 1000) return;
        lastLine = Date.now();
        write(`  ${done} of ${total} files (${formatBytes(bytesDone)} of ${formatBytes(bytesTotal)})\n`);
      },
    });
    write(`${report(summary)}\n`);
    if (summary.failed.length > 0 || summary.stopped) {
      write(
        `Not every file is in ${lower(target.name)} yet. Nothing was removed anywhere: run the same command again to copy what is missing (what is there already is skipped).\n`,
      );
      return 1;
    }
    write(
      `Every file is in ${lower(target.name)}.\n${nextSteps(to, source.name, targetChoice.storage.kind === "local")}\n`,
    );
    return 0;
  } finally {
    source.close();
    target.close();
  }
}

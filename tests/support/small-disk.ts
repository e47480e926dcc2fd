import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/*
 * Real small disks for the tests of a full or read-only disk: a tmpfs of a few pages mounted over a folder. That
 * needs root and a kernel that lets it mount; `canMount` says whether this machine can.
 */

export function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-mount-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], { stdio: "ignore" });
    execFileSync("umount", [probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

/**
 * A disk of `bytes` (rounded up to whole pages) over `target`, which is made if missing; what was in the folder is
 * hidden meanwhile. `owner` (a user name) owns the disk's top folder, for a server that runs as another user.
 */
export function mountTmpfs(target: string, bytes: number, owner?: string) {
  fs.mkdirSync(target, { recursive: true });
  const size = Math.ceil(bytes / 4096) * 4096;
  const ids = owner
    ? `,uid=${execFileSync("id", ["-u", owner]).toString().trim()},gid=${execFileSync("id", ["-g", owner]).toString().trim()},mode=0700`
    : "";
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}${ids}`, "tmpfs", target]);
}

export function unmount(target: string) {
  execFileSync("umount", [target]);
}

/**
 * Fills the disk `directory` is on to its last byte with one file, and returns that file's path: removing it frees
 * the space again. Written a page at a time at the end, so that not even a page is left over.
 */
export function fillDisk(directory: string): string {
  const filler = path.join(directory, `filler-${process.pid}`);
  const handle = fs.openSync(filler, "w");
  try {
    for (const chunk of [Buffer.alloc(1024 * 1024), Buffer.alloc(4096), Buffer.alloc(1)]) {
      try {
        for (;;) fs.writeSync(handle, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      }
    }
  } finally {
    fs.closeSync(handle);
  }
  return filler;
}

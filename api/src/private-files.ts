/**
 * Files the app keeps under DATA_DIR hold secrets (the JWT secret, outbox mails with live reset links, the
 * store's address), so they are for the app's own user only: files 0600, directories 0700 — whatever the
 * umask. A mode given at creation only narrows the umask's result; an existing file keeps its mode, so files
 * and folders left readable by an older version are tightened where the app opens them.
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { logger } from "./logger";

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;
/** group and other permission bits */
const SHARED_BITS = 0o077;

/**
 * Create `dir` owner-only when missing, and so every missing folder from `root` (included) down to it; the
 * parents of `root` are created as usual (they are not the app's). Existing folders are left as they are.
 */
export function ensurePrivateDir(dir: string, root: string = dir): void {
  fs.mkdirSync(path.dirname(root), { recursive: true });
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** ensurePrivateDir() without blocking (mail is written while requests are served). */
export async function ensurePrivateDirAsync(dir: string, root: string = dir): Promise<void> {
  await fsp.mkdir(path.dirname(root), { recursive: true });
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** chmod `file` to `mode` when it grants group or other any permission; missing files are ignored. */
export function tightenSync(file: string, mode: number = PRIVATE_FILE_MODE): void {
  try {
    if (fs.statSync(file).mode & SHARED_BITS) fs.chmodSync(file, mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

/**
 * A folder only the app writes (the outbox): owner-only, and so is every file in it. Never throws: a folder the
 * app may not chmod (owned by another user) is reported, and start-up goes on as before.
 */
export function tightenPrivateFolder(dir: string): void {
  try {
    tightenSync(dir, PRIVATE_DIR_MODE);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue; // chmod would follow it out of the folder
      tightenSync(path.join(dir, entry.name), entry.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    logger.warn({ err, dir }, "could not make the folder owner-only");
  }
}

/**
 * Replace `file` with `data`, owner-only: written to a temporary file created 0600 beside it, then renamed over
 * it, so the content is never readable by others (not even for a moment through an old, wider file) and a
 * reader never sees half a file.
 */
export function writePrivateFileSync(file: string, data: string | Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.rmSync(tmp, { force: true }); // a leftover would keep its own mode
    fs.writeFileSync(tmp, data, { mode: PRIVATE_FILE_MODE, flag: "wx" });
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * The data directory: its file names, owner-only permissions and the lock that gives it one owner.
 *
 * Files in dbpath:
 *   mongod.lock           pid of the process that holds the directory
 *   snapshot.bson         full state as records (written to snapshot.tmp, fsynced, renamed); its header names
 *                         the log generation that follows it (compaction.ts)
 *   snapshot.tmp          a snapshot being written; removed at recovery when a crash left one
 *   journal.<gen>.wal     write-ahead logs (wal.ts), replayed after the snapshot at recovery (recovery.ts)
 *
 * Every one of them holds data (the lock only a pid), so the directory is 0700 and the files 0600: no other
 * local user may read them. Modes are set explicitly when a file is created (umask can only narrow them) and an
 * existing directory or file with group/other bits, e.g. one made by an older version or by `mkdir -p`, is
 * tightened when the store opens it.
 */
import fs from "node:fs";
import path from "node:path";
import { StoreError } from "./types";

export const SNAPSHOT = "snapshot.bson";
export const SNAPSHOT_TMP = "snapshot.tmp";
export const LOCK = "mongod.lock";
/** rw for the owner only */
export const FILE_MODE = 0o600;
/** rwx for the owner only */
export const DIR_MODE = 0o700;
/** group and other permission bits */
const GROUP_OTHER = 0o077;
const STICKY = 0o1000;

export function journalName(gen: number): string {
  return `journal.${gen}.wal`;
}

/** the generation of a write-ahead log file name, undefined for any other name */
export function journalGen(name: string): number | undefined {
  const m = /^journal\.(\d+)\.wal$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

function isStoreFile(name: string): boolean {
  return name === SNAPSHOT || name === SNAPSHOT_TMP || name === LOCK || journalGen(name) !== undefined;
}

/** chmod when the mode has group/other bits; a file or directory of another user is reported, not fatal */
function tighten(
  target: string,
  mode: number,
  current: number,
  chmod = () => fs.chmodSync(target, mode),
): void {
  if ((current & GROUP_OTHER) === 0) return;
  try {
    chmod();
  } catch (e) {
    process.emitWarning(
      `embedded store: could not make ${target} owner-only (${(e as Error).message}); other local users may read it`,
    );
  }
}

/**
 * Creates the directory owner-only, or tightens an existing one. A shared directory with the sticky bit (such as
 * /tmp itself) is left as it is: it is not the store's to change, and the store's files are owner-only anyway.
 */
export function preparePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const st = fs.statSync(dir);
  if ((st.mode & STICKY) === 0) tighten(dir, DIR_MODE, st.mode);
}

/** Tightens the store's files already in the directory (once it holds the lock). */
export function tightenStoreFiles(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (!isStoreFile(name)) continue;
    const file = path.join(dir, name);
    const f = fs.lstatSync(file);
    if (f.isFile()) tighten(file, FILE_MODE, f.mode);
  }
}

/** Opens (creating when needed) a file owner-only; an existing file with looser bits is tightened. */
export function openPrivate(file: string, flags: "a" | "w" | "wx"): number {
  const fd = fs.openSync(file, flags, FILE_MODE);
  tighten(file, FILE_MODE, fs.fstatSync(fd).mode, () => fs.fchmodSync(fd, FILE_MODE));
  return fd;
}

/** fsyncs a directory so a rename or new file in it is durable (not supported on every platform) */
export function syncDir(dir: string): void {
  try {
    const d = fs.openSync(dir, "r");
    fs.fsyncSync(d);
    fs.closeSync(d);
  } catch {
    // not supported on every platform
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the directory lock: fails when a live process holds it, takes over a stale one. Returns the release
 * function. The lock is a pid file, not an OS lock (see the package README's limits).
 */
export function lockDataDir(dir: string): () => void {
  const lockPath = path.join(dir, LOCK);
  const release = () => {
    try {
      fs.unlinkSync(lockPath);
    } catch {
      // already removed
    }
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openPrivate(lockPath, "wx");
      fs.writeSync(fd, `${process.pid}\n`);
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    let pid = Number.NaN;
    try {
      pid = Number.parseInt(fs.readFileSync(lockPath, "utf8").trim(), 10);
    } catch {
      // vanished meanwhile: retry
    }
    if (Number.isInteger(pid) && pid > 0 && pidAlive(pid)) {
      throw new StoreError(
        98,
        "DBPathInUse",
        `Unable to lock the data directory ${dir}: it is in use by another process (pid ${pid}, lock file ${lockPath}). Stop that process or use another directory.`,
      );
    }
    // stale lock of a dead process (or an empty/garbled one): take it over
    release();
  }
  throw new StoreError(98, "DBPathInUse", `Unable to lock the data directory ${dir} (lock file ${lockPath})`);
}

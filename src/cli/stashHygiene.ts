/**
 * A stash folder made safe to serve from at start-up: folders readable by their owner only
 * (0700), files too (0600), whatever mode an older version or a copy left them with; and the
 * temporary files of writers that were killed mid-write (their process is gone) removed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** `name.<pid>.tmp` (the atomic file writer) or `name.<pid>.<random>.tmp` (the stash's entry writer). */
const TEMPORARY = /\.(\d+)(?:\.[a-z0-9]+)?\.tmp$/i;

export interface StashTidiness {
  /** Temporary files removed. */
  readonly removed: number;
  /** Files and folders whose mode was tightened. */
  readonly tightened: number;
}

/** Tightens modes and removes stale temporary files under `directory` (which may not exist yet). */
export function tidyStashFolder(directory: string): StashTidiness {
  let removed = 0;
  let tightened = 0;
  const visit = (entry: string, depth: number): void => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch {
      return;
    }
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      if ((stat.mode & 0o077) !== 0) {
        fs.chmodSync(entry, 0o700);
        tightened++;
      }
      if (depth < 3) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name), depth + 1);
      return;
    }
    const temporary = TEMPORARY.exec(path.basename(entry));
    if (temporary && !isRunning(Number(temporary[1]))) {
      fs.rmSync(entry, { force: true });
      removed++;
      return;
    }
    if ((stat.mode & 0o077) !== 0) {
      fs.chmodSync(entry, 0o600);
      tightened++;
    }
  };
  visit(directory, 0);
  return { removed, tightened };
}

/**
 * Whether another process of this id runs (a writer that may still rename its temporary file).
 * This process writes nothing before the tidying, so a file under its own id is a previous
 * process's (a container's gateway is often pid 1 every time).
 */
function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * The state store in a local folder: one file per key, so several processes (the CLI's
 * consecutive `herald optimize` runs, `herald serve` and its worker threads) share it without
 * a lock. Every write goes to a temporary file first and is renamed into place (last writer
 * wins) or linked into place (`ifAbsent`: the link fails when the entry exists, so the first
 * decision stands; such entries of one batch with the same text are linked from one temporary
 * file; first-write-wins entries of one group, a run's decisions, share one file, a bundle, see
 * `folderBundles.ts`); a reader never sees a partial file. Files are the user's alone (0600 in a
 * 0700 folder). An entry's age is its file's modification time, refreshed when it is read;
 * a sweep now and then removes expired entries, then the least recently used past the size
 * budget, and temporary files a killed process left behind.
 *
 * Reads and writes of entries use the synchronous calls: an entry is a small local file, and
 * a promise-based call costs ten times the CPU of the system call itself on the event loop
 * (issue 26: the store's promise calls were a fifth of the gateway's CPU a request).
 */
import { createHash } from 'node:crypto';
import * as fsSync from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_STORE_MAX_BYTES, DEFAULT_STORE_TTL_MS, type StateStore, type StoreLimits, type StoreWrite } from './stateStore';
import { bundlesOf, decodeBundle, encodeBundle, fileText, isBundle, valueOfText, type BundledEntry } from './folderBundles';

/** A sweep runs at most this often (it lists and stats every entry). */
const SWEEP_INTERVAL_MS = 60_000;
/** A temporary file older than this belongs to a write that never finished. */
const STALE_TEMPORARY_MS = 60_000;

export class FolderStateStore implements StateStore {
  readonly description: string;
  private ready: Promise<void> | undefined;
  private lastSweep = Number.NEGATIVE_INFINITY;
  private sweeping: Promise<void> | undefined;

  constructor(readonly directory: string, private readonly limits: StoreLimits = { ttlMs: DEFAULT_STORE_TTL_MS, maxBytes: DEFAULT_STORE_MAX_BYTES }, private readonly now: () => number = Date.now) {
    this.description = `folder ${directory}`;
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    const now = this.now();
    // A bundle linked under several of the keys is read, parsed and marked used once.
    const bundles = new Map<string, Map<string, string>>();
    return keys.map((key) => {
      const file = this.file(key);
      let text: string | undefined;
      try {
        const stat = fsSync.statSync(file, { throwIfNoEntry: false });
        if (!stat) return undefined;
        if (now - stat.mtimeMs > this.limits.ttlMs) return undefined;
        const inode = `${stat.dev}:${stat.ino}:${stat.size}`;
        const bundle = bundles.get(inode);
        // Read, and marked used, for an earlier key of this call.
        if (bundle !== undefined) return bundle.get(key);
        text = fsSync.readFileSync(file, 'utf8');
        if (isBundle(text)) {
          // A bundle that does not parse (cut short by a full disk, say) holds nothing readable.
          const entries = decodeBundle(text);
          if (entries !== undefined) bundles.set(inode, entries);
          text = entries?.get(key);
        } else {
          text = valueOfText(text);
        }
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
      if (text === undefined) return undefined;
      // Used now: it ages from here (a failure to mark it only makes it older).
      const date = new Date(now);
      try {
        fsSync.utimesSync(file, date, date);
      } catch {
        // Only its age is lost.
      }
      return text;
    });
  }

  async setMany(writes: readonly StoreWrite[]): Promise<boolean[]> {
    if (writes.length === 0) return [];
    await this.ensure();
    // First-write-wins entries of the same text share one temporary file, linked under each name:
    // the memo writes every decision under two keys (its chain and the message's own content),
    // and a link is a fraction of the cost of another file written and removed.
    const shared = new Map<string, string>();
    const bundled = new Map<StoreWrite, string>();
    try {
      this.stageBundles(writes, bundled);
      const written = writes.map((write) => {
        const bundle = bundled.get(write);
        if (bundle !== undefined) return this.linkIfAbsent(write, bundle);
        return write.ifAbsent ? this.writeIfAbsent(write, shared) : this.replace(write);
      });
      this.maybeSweep();
      return written;
    } finally {
      for (const temporary of [...shared.values(), ...new Set(bundled.values())]) fsSync.rmSync(temporary, { force: true });
    }
  }

  /**
   * Stages one file for each bundle the batch's first-write-wins entries of a group make (see
   * `folderBundles.ts`) and notes it against each of its writes in `bundled`.
   */
  private stageBundles(writes: readonly StoreWrite[], bundled: Map<StoreWrite, string>): void {
    const groups = new Map<string, StoreWrite[]>();
    for (const write of writes) {
      if (!write.ifAbsent || write.group === undefined) continue;
      const members = groups.get(write.group);
      if (members) members.push(write);
      else groups.set(write.group, [write]);
    }
    for (const members of groups.values()) {
      const byEntry = new Map<BundledEntry, StoreWrite>(members.map((write) => [{ key: write.key, value: write.value }, write]));
      for (const bundle of bundlesOf([...byEntry.keys()])) {
        const temporary = stageText(this.file(bundle[0]!.key), encodeBundle(bundle));
        for (const entry of bundle) bundled.set(byEntry.get(entry)!, temporary);
      }
    }
  }

  /**
   * A first-write-wins entry from a staged bundle: linked under the entry's name unless one is
   * there and not expired. An expired one is replaced by a second link renamed over it, so the
   * staged bundle stays for the batch's other entries.
   */
  private linkIfAbsent(write: StoreWrite, bundle: string): boolean {
    const target = this.file(write.key);
    return this.linkFirst(bundle, target, () => {
      const aside = temporaryBeside(target);
      fsSync.linkSync(bundle, aside);
      try {
        fsSync.renameSync(aside, target);
      } catch (error) {
        fsSync.rmSync(aside, { force: true });
        throw error;
      }
    });
  }

  /**
   * Links `source` under `target` unless an entry is there and not expired (the first decision
   * stands): false then. An expired one is put out of the way by `replace`.
   */
  private linkFirst(source: string, target: string, replace: () => void): boolean {
    try {
      fsSync.linkSync(source, target);
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
    const stat = statOrUndefined(target);
    if (stat && this.now() - stat.mtimeMs <= this.limits.ttlMs) return false;
    replace();
    return true;
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    for (const key of keys) fsSync.rmSync(this.file(key), { force: true });
  }

  async ping(): Promise<void> {
    await this.ensure();
    await fs.access(this.directory, fs.constants.W_OK | fs.constants.R_OK);
  }

  async close(): Promise<void> {
    await this.sweeping;
  }

  /** Removes expired entries, then the least recently used past the budget, and abandoned temporary files. */
  async sweep(): Promise<void> {
    this.lastSweep = this.now();
    let names: string[];
    try {
      names = await fs.readdir(this.directory);
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    const now = this.now();
    const entries: { file: string; size: number; touched: number; inode: string }[] = [];
    for (const name of names) {
      const file = path.join(this.directory, name);
      let stat;
      try {
        stat = await fs.stat(file);
      } catch {
        continue;
      }
      if (name.endsWith('.tmp')) {
        if (now - stat.mtimeMs > STALE_TEMPORARY_MS) await fs.rm(file, { force: true });
        continue;
      }
      if (!name.endsWith('.json')) continue;
      if (now - stat.mtimeMs > this.limits.ttlMs) await fs.rm(file, { force: true });
      else entries.push({ file, size: stat.size, touched: stat.mtimeMs, inode: stat.nlink > 1 ? `${stat.dev}:${stat.ino}` : file });
    }
    // Entries linked from one file (see writeIfAbsent) take its bytes once, and give them back
    // when the last of their names goes. A file with one name is its own group, so a file
    // system that reports no inode numbers cannot merge them.
    const links = new Map<string, number>();
    let total = 0;
    for (const entry of entries) {
      const count = links.get(entry.inode) ?? 0;
      if (count === 0) total += entry.size;
      links.set(entry.inode, count + 1);
    }
    for (const entry of entries.sort((a, b) => a.touched - b.touched)) {
      if (total <= this.limits.maxBytes) break;
      await fs.rm(entry.file, { force: true });
      const left = links.get(entry.inode)! - 1;
      links.set(entry.inode, left);
      if (left === 0) total -= entry.size;
    }
  }

  private maybeSweep(): void {
    if (this.sweeping || this.now() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.sweeping = this.sweep().catch(() => undefined).finally(() => {
      this.sweeping = undefined;
    });
  }

  /** Writes an entry, replacing what is there (last writer wins). */
  private replace(write: StoreWrite): boolean {
    const target = this.file(write.key);
    const temporary = stage(target, write.value);
    try {
      fsSync.renameSync(temporary, target);
      return true;
    } catch (error) {
      fsSync.rmSync(temporary, { force: true });
      throw error;
    }
  }

  /**
   * Writes an entry unless one is there and not expired (the first decision stands): its text
   * in a temporary file (`shared`'s for that text, or a new one it keeps for the rest of the
   * batch), linked under the entry's name.
   */
  private writeIfAbsent(write: StoreWrite, shared: Map<string, string>): boolean {
    const target = this.file(write.key);
    let temporary = shared.get(write.value);
    if (temporary === undefined) {
      temporary = stage(target, write.value);
      shared.set(write.value, temporary);
    }
    const staged = temporary;
    // An expired entry is replaced by this one; the temporary file goes with the rename, so a
    // later entry of the same text stages its own.
    return this.linkFirst(staged, target, () => {
      fsSync.renameSync(staged, target);
      shared.delete(write.value);
    });
  }

  private ensure(): Promise<void> {
    // A failed mkdir is not remembered: a folder that becomes writable later is used again.
    this.ready ??= fs.mkdir(this.directory, { recursive: true, mode: 0o700 }).then(() => fs.chmod(this.directory, 0o700)).then(() => {
      // Temporary files a killed process left behind go at the first sweep, which runs now.
      this.maybeSweep();
    }, (error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /** Keys may hold any character; file names are a digest of the key. */
  private file(key: string): string {
    return path.join(this.directory, `${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 40)}.json`);
  }
}

/** A new temporary file beside `target` holding `value` alone. */
function stage(target: string, value: string): string {
  return stageText(target, fileText(value));
}

/** A new temporary file beside `target` holding `text`. */
function stageText(target: string, text: string): string {
  const temporary = temporaryBeside(target);
  fsSync.writeFileSync(temporary, text, { encoding: 'utf8', mode: 0o600 });
  return temporary;
}

/** A name for a temporary file beside `target` that no other write takes. */
function temporaryBeside(target: string): string {
  return `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
}

function statOrUndefined(file: string): fsSync.Stats | undefined {
  try {
    return fsSync.statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * Where stashed originals live. The stash talks to this port only: memory for tests, files
 * for the CLI, the extension's global storage in VS Code.
 */
import * as fsSync from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export interface BlobInfo {
  readonly key: string;
  readonly size: number;
  /** Last write or read, ms since the epoch. */
  readonly touched: number;
}

export interface BlobStore {
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every entry, or those whose key starts with `prefix` (a store may list more; callers filter). */
  list(prefix?: string): Promise<BlobInfo[]>;
  /** Marks an entry as used now, for least-recently-used eviction. */
  touch(key: string): Promise<void>;
}

export class MemoryBlobStore implements BlobStore {
  private readonly blobs = new Map<string, { value: string; touched: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  async get(key: string): Promise<string | undefined> {
    return this.blobs.get(key)?.value;
  }
  async put(key: string, value: string): Promise<void> {
    this.blobs.set(key, { value, touched: this.now() });
  }
  async delete(key: string): Promise<void> {
    this.blobs.delete(key);
  }
  async list(prefix = ''): Promise<BlobInfo[]> {
    return [...this.blobs].filter(([key]) => key.startsWith(prefix)).map(([key, blob]) => ({ key, size: blob.value.length * 2, touched: blob.touched }));
  }
  async touch(key: string): Promise<void> {
    const blob = this.blobs.get(key);
    if (blob) blob.touched = this.now();
  }
}

/**
 * One file per entry, readable only by the user (mode 0600). Writes go to a temporary file
 * that is renamed into place, so a crash never leaves a partial file under an entry's name.
 * Entries are small local files read and written with the synchronous calls, which cost a
 * tenth of the CPU of the promise-based ones (issue 26).
 */
export class FileBlobStore implements BlobStore {
  private ready: Promise<void> | undefined;
  constructor(readonly directory: string) {}

  private ensure(): Promise<void> {
    // A failed mkdir is not remembered: a folder that becomes writable later is used again.
    this.ready ??= fs.mkdir(this.directory, { recursive: true, mode: 0o700 }).then(() => undefined, (error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }
  private file(key: string): string {
    if (!/^[a-z0-9_.-]+$/i.test(key)) throw new Error(`Herald: invalid stash key "${key}"`);
    return path.join(this.directory, `${key}.json`);
  }
  async get(key: string): Promise<string | undefined> {
    try {
      return fsSync.readFileSync(this.file(key), 'utf8');
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
  async put(key: string, value: string): Promise<void> {
    await this.ensure();
    const target = this.file(key);
    const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    fsSync.writeFileSync(temporary, value, { encoding: 'utf8', mode: 0o600 });
    fsSync.renameSync(temporary, target);
  }
  async delete(key: string): Promise<void> {
    fsSync.rmSync(this.file(key), { force: true });
  }
  async list(prefix = ''): Promise<BlobInfo[]> {
    let names: string[];
    try {
      names = fsSync.readdirSync(this.directory);
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
    const infos: BlobInfo[] = [];
    for (const name of names) {
      // Only the names asked for are looked at (a tenant's sweep does not stat every tenant's entries).
      if (!name.endsWith('.json') || !name.startsWith(prefix)) continue;
      const stat = fsSync.statSync(path.join(this.directory, name), { throwIfNoEntry: false });
      if (stat) infos.push({ key: name.slice(0, -'.json'.length), size: stat.size, touched: stat.mtimeMs });
    }
    return infos;
  }
  async touch(key: string): Promise<void> {
    const now = new Date();
    try {
      fsSync.utimesSync(this.file(key), now, now);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * Where Herald's state lives when more than one process serves the same conversations: the
 * memo of decided history, the sessions' pins, semantic_cache's answers and the stash's
 * originals, each a string under a key. One port, three engines: memory (one process), a local
 * folder (one machine: `herald optimize`, `herald serve` and its workers share the files) and
 * Redis (a team's replicas). Keys arrive already namespaced (per tenant, per kind of state);
 * a store adds only its own prefix.
 *
 * Values are opaque strings; each kind of state carries its own schema version inside them.
 */

/** One write. */
export interface StoreWrite {
  readonly key: string;
  readonly value: string;
  /** Dropped after this many ms without a write or a read that refreshes it. Default: the store's. */
  readonly ttlMs?: number;
  /**
   * Keep a value that is already there (content-addressed entries: the first decision stands,
   * so every process replays the same bytes). Default false: last writer wins.
   */
  readonly ifAbsent?: boolean;
  /**
   * With `ifAbsent`: writes of one batch with the same group may be kept together (the folder
   * store writes them as one file, linked under each key). A group never spans tenants. Unset:
   * the entry is kept on its own.
   */
  readonly group?: string;
}

export interface StateStore {
  /** A name for logs and health (`memory`, `folder /path`, `redis 127.0.0.1:6379`), never a credential. */
  readonly description: string;
  /** Values of `keys` in one round trip, in order; undefined where absent or expired. A read refreshes the entry's age. */
  getMany(keys: readonly string[]): Promise<(string | undefined)[]>;
  /** Writes in one round trip; resolves with, per write, whether it was written (false: `ifAbsent` found a value). */
  setMany(writes: readonly StoreWrite[]): Promise<boolean[]>;
  deleteMany(keys: readonly string[]): Promise<void>;
  /** Resolves when the store answers; rejects with why it does not (health checks). */
  ping(): Promise<void>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

/** Bounds every engine applies: entries expire after `ttlMs` unused; past `maxBytes` the least recently used go first. */
export interface StoreLimits {
  readonly ttlMs: number;
  readonly maxBytes: number;
}

/** Seven days, as the stash keeps an unused original. */
export const DEFAULT_STORE_TTL_MS = 7 * 24 * 3600 * 1000;
export const DEFAULT_STORE_MAX_BYTES = 512 * 1024 * 1024;

/** A view of a store whose keys all start with `prefix` (a kind of state, a tenant). */
export function prefixedStore(store: StateStore, prefix: string): StateStore {
  const keyOf = (key: string): string => prefix + key;
  return {
    description: store.description,
    getMany: (keys) => store.getMany(keys.map(keyOf)),
    setMany: (writes) => store.setMany(writes.map((write) => ({ ...write, key: keyOf(write.key) }))),
    deleteMany: (keys) => store.deleteMany(keys.map(keyOf)),
    ping: () => store.ping(),
    // The view does not own the store.
    close: async () => undefined,
  };
}

/** A store in this process's memory: bounded by bytes, least recently used first out, entries expiring. */
export class MemoryStateStore implements StateStore {
  readonly description = 'memory';
  private readonly entries = new Map<string, { value: string; touched: number; ttlMs: number }>();
  private bytes = 0;

  constructor(private readonly limits: StoreLimits = { ttlMs: DEFAULT_STORE_TTL_MS, maxBytes: DEFAULT_STORE_MAX_BYTES }, private readonly now: () => number = Date.now) {}

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    const now = this.now();
    return keys.map((key) => {
      const entry = this.entries.get(key);
      if (!entry) return undefined;
      if (now - entry.touched > entry.ttlMs) {
        this.remove(key);
        return undefined;
      }
      entry.touched = now;
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value;
    });
  }

  async setMany(writes: readonly StoreWrite[]): Promise<boolean[]> {
    const now = this.now();
    const written = writes.map((write) => {
      const existing = this.entries.get(write.key);
      if (write.ifAbsent && existing && now - existing.touched <= existing.ttlMs) return false;
      this.remove(write.key);
      this.entries.set(write.key, { value: write.value, touched: now, ttlMs: write.ttlMs ?? this.limits.ttlMs });
      this.bytes += sizeOf(write.key, write.value);
      return true;
    });
    while (this.bytes > this.limits.maxBytes && this.entries.size > 0) this.remove(this.entries.keys().next().value as string);
    return written;
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.remove(key);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= sizeOf(key, entry.value);
    this.entries.delete(key);
  }
}

/** Bytes an entry is counted as (UTF-16 in memory, as the stash counts). */
function sizeOf(key: string, value: string): number {
  return (key.length + value.length) * 2;
}

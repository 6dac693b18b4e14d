/**
 * A bounded map in two generations: entries go into the newer one; when it holds half the
 * bound it becomes the older and the oldest is dropped whole; an entry found in the older one
 * moves to the newer. At most `limit` entries are held, and eviction costs nothing per entry.
 *
 * A first-in-first-out `Map` (delete its first key on every insert) looks cheaper but is not in
 * V8: a deleted entry stays a hole that every later `keys().next()` walks past until the table
 * is rebuilt, so a full cache of 10,000 vectors spent more time evicting than embedding.
 */
export class GenerationalCache<K, V> {
  private newer = new Map<K, V>();
  private older = new Map<K, V>();
  private readonly half: number;

  constructor(limit: number) {
    if (!(limit >= 2)) throw new Error(`Herald: a generational cache needs room for 2 entries at least, got ${limit}`);
    this.half = Math.floor(limit / 2);
  }

  get(key: K): V | undefined {
    const recent = this.newer.get(key);
    if (recent !== undefined) return recent;
    const old = this.older.get(key);
    if (old !== undefined) {
      this.older.delete(key);
      this.insert(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    if (this.newer.has(key)) {
      this.newer.set(key, value);
      return;
    }
    this.older.delete(key);
    this.insert(key, value);
  }

  /** Entries held in both generations. */
  get size(): number {
    return this.newer.size + this.older.size;
  }

  private insert(key: K, value: V): void {
    if (this.newer.size >= this.half) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, value);
  }
}

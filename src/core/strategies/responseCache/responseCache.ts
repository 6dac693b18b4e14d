/**
 * Where semantic_cache keeps answers: a bounded, least-recently-used map with an age limit.
 * The host may inject its own (a persistent one) through the factory.
 */

export interface CachedResponse {
  /** The answer exactly as the host handed it over after a live call. */
  readonly response: unknown;
  /** When it was stored (ms since the epoch). */
  readonly stored: number;
}

/** What semantic_cache needs from a store. */
export interface ResponseCacheStore {
  get(key: string): CachedResponse | undefined;
  set(key: string, entry: CachedResponse): void;
  /** Shadow keys: normalised request hashes of stored answers, for measurement only. */
  hasShadow(key: string): boolean;
  addShadow(key: string): void;
  readonly size: number;
}

export class MemoryResponseCache implements ResponseCacheStore {
  private readonly entries = new Map<string, CachedResponse>();
  private readonly shadows = new Map<string, true>();

  /** @param maxEntries answers kept (least recently used go first); shadow keys are bounded the same. */
  constructor(private readonly maxEntries = 256) {}

  get(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  hasShadow(key: string): boolean {
    return this.shadows.has(key);
  }

  addShadow(key: string): void {
    this.shadows.delete(key);
    this.shadows.set(key, true);
    while (this.shadows.size > this.maxEntries) this.shadows.delete(this.shadows.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}

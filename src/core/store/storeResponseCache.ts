/**
 * semantic_cache's answers in a state store, so an answer one process (a worker, a replica)
 * stored is served by every other. The strategy reads synchronously: the caller
 * {@link StoreResponseCache.prefetch}es the request's key before the run, and
 * {@link StoreResponseCache.flush}es after `afterResponse` stored an answer. Shadow keys are
 * measurement only and stay in this process.
 */
import { MemoryResponseCache, type CachedResponse, type ResponseCacheStore } from '../strategies/responseCache/responseCache';
import type { StateStore } from './stateStore';

const ANSWER_SCHEMA_VERSION = 1;

export class StoreResponseCache implements ResponseCacheStore {
  private readonly local: MemoryResponseCache;
  private writes: Promise<unknown>[] = [];

  constructor(private readonly store: StateStore, maxEntries = 256) {
    this.local = new MemoryResponseCache(maxEntries);
  }

  get(key: string): CachedResponse | undefined {
    return this.local.get(key);
  }

  set(key: string, entry: CachedResponse): void {
    this.local.set(key, entry);
    this.writes.push(this.store.setMany([{ key: storeKeyOf(key), value: JSON.stringify({ schema: ANSWER_SCHEMA_VERSION, entry }) }]));
  }

  hasShadow(key: string): boolean {
    return this.local.hasShadow(key);
  }

  addShadow(key: string): void {
    this.local.addShadow(key);
  }

  get size(): number {
    return this.local.size;
  }

  /** Loads the stored answers of `keys` this process does not hold. Throws when the store cannot be read. */
  async prefetch(keys: readonly string[]): Promise<void> {
    const wanted = keys.filter((key) => this.local.get(key) === undefined);
    if (wanted.length === 0) return;
    let values: (string | undefined)[];
    try {
      values = await this.store.getMany(wanted.map(storeKeyOf));
    } catch (error) {
      throw new Error(`Herald: the state store could not be read (${error instanceof Error ? error.message : String(error)}); nothing was optimized`);
    }
    values.forEach((value, index) => {
      const entry = value === undefined ? undefined : parseStored(value);
      if (entry) this.local.set(wanted[index]!, entry);
    });
  }

  /** Resolves when every answer stored so far is written; throws the first failure. */
  async flush(): Promise<void> {
    const writes = this.writes;
    this.writes = [];
    await Promise.all(writes);
  }
}

function storeKeyOf(key: string): string {
  return `answer:${key}`;
}

function parseStored(value: string): CachedResponse | undefined {
  try {
    const saved = JSON.parse(value) as { schema?: unknown; entry?: { response?: unknown; stored?: unknown } };
    if (saved.schema !== ANSWER_SCHEMA_VERSION || typeof saved.entry?.stored !== 'number' || saved.entry.response === undefined) return undefined;
    return { response: saved.entry.response, stored: saved.entry.stored };
  } catch {
    return undefined;
  }
}

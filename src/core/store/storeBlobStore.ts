/**
 * The stash's originals in a state store (Redis, for a team's gateway): every replica answers
 * every handle. The store ages entries out and keeps its size budget itself, so the stash's own
 * sweep finds nothing to list here.
 */
import type { BlobInfo, BlobStore } from '../stash/blobStore';
import type { StateStore } from './stateStore';

export class StoreBlobStore implements BlobStore {
  constructor(private readonly store: StateStore, private readonly ttlMs?: number) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.store.getMany([key]))[0];
  }

  async put(key: string, value: string): Promise<void> {
    await this.store.setMany([{ key, value, ...(this.ttlMs !== undefined ? { ttlMs: this.ttlMs } : {}) }]);
  }

  async delete(key: string): Promise<void> {
    await this.store.deleteMany([key]);
  }

  /** Nothing to sweep: the store expires and evicts entries itself. */
  async list(): Promise<BlobInfo[]> {
    return [];
  }

  async touch(key: string): Promise<void> {
    // A read refreshes an entry's age.
    await this.store.getMany([key]);
  }
}

/**
 * Where `herald serve` keeps its state, from `--store`: the stash folder (default: one
 * machine; the gateway's workers share its files) or Redis (`redis://…`: a team's replicas
 * share it). Opened the same way in the gateway's process and in each worker, so every one
 * of them reads and writes the same originals, memo, pins and answers under the same key.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MessageMemo } from '../core/pipeline/messageMemo';
import { SessionStateStore } from '../core/pipeline/sessionState';
import { FileBlobStore, type BlobStore } from '../core/stash/blobStore';
import { Stash } from '../core/stash/stash';
import { FolderStateStore } from '../core/store/folderStateStore';
import { prefixedStore, type StateStore } from '../core/store/stateStore';
import { StoreBlobStore } from '../core/store/storeBlobStore';
import { StoreResponseCache } from '../core/store/storeResponseCache';
import { readOrCreateKeyFile } from '../core/files';

/** What `--store` names; plain data, handed to each worker. */
export type StoreSpec =
  | { readonly kind: 'folder'; readonly directory: string }
  | { readonly kind: 'redis'; readonly url: string; readonly prefix?: string };

export interface StoreLimitsSpec {
  /** Unused state and originals are dropped after this many ms. */
  readonly ttlMs?: number;
  /** Size budget in bytes (the folder's sweeps; Redis's maxmemory when set). */
  readonly maxBytes?: number;
}

export interface GatewayStores {
  readonly spec: StoreSpec;
  /** The store the memo, pins and answers live in. */
  readonly store: StateStore;
  /** Where the stash's originals live (each tenant under its namespace, see `tenantOptimizer.ts`). */
  readonly stashStore: BlobStore;
  readonly memo: MessageMemo;
  readonly state: SessionStateStore;
  readonly responseCache: StoreResponseCache;
  /** The key handles and tenants derive from: the same for every process on the store. */
  readonly key: Uint8Array;
  /** A networked store's connection (Redis): its changes, and its memory budget. Absent for a folder. */
  readonly connection?: {
    connected(): boolean;
    onConnection(listener: (up: boolean) => void): void;
    /** Resolves with a problem to report when the server refuses the budget. */
    applyBudget(maxBytes: number): Promise<string | undefined>;
  };
  /** Applies the folder's age and size limits to every tenant's originals (Redis expires and evicts them itself). */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/** `--store` as given: a `redis://` or `rediss://` URL, or a folder. */
export function parseStoreOption(value: string): StoreSpec {
  if (/^rediss?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new Error(`Herald: --store ${redact(value)} is not a valid Redis URL (redis://host:6379)`);
    }
    return { kind: 'redis', url: value };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) throw new Error(`Herald: --store takes a folder or a redis:// URL, not ${redact(value)}`);
  return { kind: 'folder', directory: value };
}

/** A store URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}

/**
 * Opens the stores `spec` names. `key` is given to workers (the gateway's process read or made
 * it); without it the folder's key file or Redis's key entry is read, or made when absent.
 */
export async function openGatewayStores(spec: StoreSpec, options: { key?: Uint8Array; limits?: StoreLimitsSpec; onProblem: (code: string, message: string) => void }): Promise<GatewayStores> {
  const limits = options.limits ?? {};
  if (spec.kind === 'folder') {
    fs.mkdirSync(spec.directory, { recursive: true, mode: 0o700 });
    const key = options.key ?? readOrCreateKeyFile(path.join(spec.directory, 'key'));
    const store = new FolderStateStore(path.join(spec.directory, 'state'), { ttlMs: limits.ttlMs ?? 7 * 24 * 3600 * 1000, maxBytes: limits.maxBytes ?? 512 * 1024 * 1024 });
    const stashStore = new FileBlobStore(path.join(spec.directory, 'entries'));
    // A stash over every entry, for its sweep only (it elides nothing).
    const sweeper = new Stash({ store: stashStore, key, onProblem: options.onProblem, ...(limits.ttlMs ? { ttlMs: limits.ttlMs } : {}), ...(limits.maxBytes ? { maxBytes: limits.maxBytes } : {}) });
    return assemble(spec, store, stashStore, key, async () => {
      await sweeper.flush();
    }, () => store.close());
  }
  // Loaded only for a Redis store: the client is not part of every CLI command's start-up.
  const { RedisStateStore } = await import('../core/store/redisStateStore');
  const redis = new RedisStateStore({ url: spec.url, ...(spec.prefix ? { prefix: spec.prefix } : {}), ...(limits.ttlMs ? { ttlMs: limits.ttlMs } : {}) });
  try {
    // Given the key (an optimizer worker: the gateway read it), a process starts while Redis is
    // away and connects once it is back; its requests fail open meanwhile.
    if (!options.key) await redis.ready();
    const key = options.key ?? (await redis.sharedKey());
    const stashStore = new StoreBlobStore(prefixedStore(redis, 'stash:'), limits.ttlMs);
    return { ...assemble(spec, redis, stashStore, key, async () => undefined, () => redis.close()), connection: redis };
  } catch (error) {
    await redis.close();
    throw error;
  }
}

function assemble(spec: StoreSpec, store: StateStore, stashStore: BlobStore, key: Uint8Array, sweep: () => Promise<void>, close: () => Promise<void>): GatewayStores {
  return { spec, store, stashStore, sweep, memo: new MessageMemo(undefined, store), state: new SessionStateStore(undefined, store), responseCache: new StoreResponseCache(store), key, close };
}


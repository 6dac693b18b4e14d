/**
 * The state store on Redis, for a team's gateway: every replica reads and writes the same
 * entries, so any replica can serve any turn of any session. Each key gets a TTL (refreshed
 * when read, with GETEX); the size budget is Redis's own `maxmemory` with an LRU policy
 * (`applyBudget` sets it when asked to). Commands fail fast when Redis is away (no offline
 * queue, a command timeout), so a caller can fail open instead of waiting; the client
 * reconnects by itself.
 *
 * The command timeout is our own ({@link answerWithin}), not ioredis's: a timer that comes due
 * while the event loop is busy (a long synchronous optimization on the same thread) runs before
 * the loop reads the sockets, so ioredis's timeout failed commands whose answer had been waiting
 * since long before ("Command timed out" under load, the request sent unoptimized). Ours looks
 * at the socket first.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DEFAULT_STORE_TTL_MS, type StateStore, type StoreWrite } from './stateStore';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
  readonly url: string;
  /** Prefix of every key Herald writes (default `herald:`), so a Redis shared with others stays apart. */
  readonly prefix?: string;
  /** Default age limit of an entry unused. */
  readonly ttlMs?: number;
  /** A command not answered in this many ms fails (default 1000). */
  readonly commandTimeoutMs?: number;
}

/** Longest pause between two attempts to reconnect to a Redis that went away. */
export const RECONNECT_MAX_GAP_MS = 250;

/**
 * The command's answer, or a rejection once `timeoutMs` passed without one. When the timer comes
 * due, the rejection waits for `setImmediate`, which runs after the event loop's poll phase of the
 * same turn: an answer that arrived while the loop was busy is read there first and wins.
 */
export function answerWithin<T>(command: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      finish();
    };
    const timer = setTimeout(() => setImmediate(() => settle(() => reject(new Error(`Herald: Redis did not answer ${what} within ${timeoutMs} ms`)))), timeoutMs);
    command.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
    );
  });
}

export class RedisStateStore implements StateStore {
  readonly description: string;
  private readonly client: Redis;
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly timeoutMs: number;
  private lastError: string | undefined;

  constructor(options: RedisStoreOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new Error(`Herald: a Redis store URL starts with redis:// or rediss://, not ${url.protocol}//`);
    // The description names the server, never its password.
    this.description = `redis ${url.hostname}:${url.port || '6379'}${url.pathname.length > 1 ? url.pathname : ''}`;
    this.prefix = options.prefix ?? 'herald:';
    this.ttlMs = options.ttlMs ?? DEFAULT_STORE_TTL_MS;
    this.timeoutMs = options.commandTimeoutMs ?? 1000;
    this.client = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      // Reconnect for ever, at most a quarter of a second apart: a restarted Redis is used again
      // as soon as it is back (a refused connection on a LAN costs next to nothing).
      retryStrategy: (times) => Math.min(50 * times, RECONNECT_MAX_GAP_MS),
      lazyConnect: false,
    });
    this.client.on('error', (error: Error) => {
      this.lastError = error.message;
    });
    this.client.on('ready', () => {
      this.lastError = undefined;
    });
  }

  /** Whether the connection is up now (commands are sent, not refused at once). */
  connected(): boolean {
    return this.client.status === 'ready';
  }

  /**
   * Calls `listener` each time the connection comes up (true) or goes down (false), so a
   * process that uses the store in another thread can tell its parent (the gateway's health).
   */
  onConnection(listener: (up: boolean) => void): void {
    this.client.on('ready', () => listener(true));
    this.client.on('close', () => listener(false));
  }

  /** Resolves once connected (or rejects after `timeoutMs`). */
  async ready(timeoutMs = 5000): Promise<void> {
    if (this.client.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.client.off('ready', onReady);
        reject(new Error(`Herald: Redis at ${this.description.slice('redis '.length)} did not answer within ${timeoutMs} ms${this.lastError ? ` (${this.lastError})` : ''}`));
      }, timeoutMs);
      const onReady = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.client.once('ready', onReady);
    });
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    if (keys.length === 0) return [];
    const pipeline = this.client.pipeline();
    for (const key of keys) pipeline.getex(this.prefix + key, 'PX', this.ttlMs);
    const results = (await answerWithin(pipeline.exec(), this.timeoutMs, `GETEX of ${keys.length} keys`)) ?? [];
    return keys.map((_key, index) => {
      const [error, value] = results[index] ?? [new Error('no answer'), null];
      if (error) throw error;
      return typeof value === 'string' ? value : undefined;
    });
  }

  async setMany(writes: readonly StoreWrite[]): Promise<boolean[]> {
    if (writes.length === 0) return [];
    const pipeline = this.client.pipeline();
    for (const write of writes) {
      const ttl = Math.max(1, Math.round(write.ttlMs ?? this.ttlMs));
      if (write.ifAbsent) pipeline.set(this.prefix + write.key, write.value, 'PX', ttl, 'NX');
      else pipeline.set(this.prefix + write.key, write.value, 'PX', ttl);
    }
    const results = (await answerWithin(pipeline.exec(), this.timeoutMs, `SET of ${writes.length} keys`)) ?? [];
    return writes.map((_write, index) => {
      const [error, value] = results[index] ?? [new Error('no answer'), null];
      if (error) throw error;
      // SET … NX answers nil when the key was there.
      return value === 'OK';
    });
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await answerWithin(this.client.del(...keys.map((key) => this.prefix + key)), this.timeoutMs, 'DEL');
  }

  async ping(): Promise<void> {
    await answerWithin(this.client.ping(), this.timeoutMs, 'PING');
  }

  /**
   * Sets Redis's memory budget and an eviction policy that drops the least recently used
   * entry with a TTL (every Herald entry has one). Resolves with a problem to report when the
   * server refuses (a managed Redis often disables CONFIG): the operator sets it there.
   */
  async applyBudget(maxBytes: number): Promise<string | undefined> {
    try {
      await this.client.config('SET', 'maxmemory', String(Math.floor(maxBytes)));
      await this.client.config('SET', 'maxmemory-policy', 'volatile-lru');
      return undefined;
    } catch (error) {
      return `Herald: Redis refused CONFIG SET maxmemory (${error instanceof Error ? error.message : String(error)}); set maxmemory and maxmemory-policy volatile-lru in its own configuration`;
    }
  }

  /**
   * The secret every replica derives handles and tenants from (`<prefix>key`, no TTL): the first
   * replica to start makes it, every other reads it.
   */
  async sharedKey(): Promise<Uint8Array> {
    const name = `${this.prefix}key`;
    await answerWithin(this.client.set(name, Buffer.from(randomBytes(32)).toString('base64'), 'NX'), this.timeoutMs, 'SET of the key');
    const value = await answerWithin(this.client.get(name), this.timeoutMs, 'GET of the key');
    const key = value === null ? undefined : Buffer.from(value, 'base64');
    if (!key || key.length !== 32) throw new Error(`Herald: the Redis store holds no valid key under ${name}; delete it and restart every replica`);
    return key;
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}

/**
 * Per-session pins: a decision a strategy takes once and replays byte for byte on later
 * turns (tool_pruning's kept set, reasoning_budget's cap). Values must be JSON.
 *
 * Strategies read and write pins synchronously. With a backing {@link StateStore} shared by
 * several processes, a session's pins are one entry: read fresh before each request
 * ({@link SessionStateStore.prefetch}) and written back after it when they changed
 * ({@link SessionStateStore.flush}); the last writer wins.
 */
import type { StateStore } from '../store/stateStore';

export const SESSION_STATE_SCHEMA_VERSION = 1;

export class SessionState {
  /** @param changed told of every change, with how many pins it added (1, 0 or -1). */
  constructor(private readonly values: Map<string, unknown>, private readonly prefix: string, private readonly changed: (added: number) => void = () => undefined) {}

  get<T>(key: string): T | undefined {
    return this.values.get(this.prefix + key) as T | undefined;
  }
  set(key: string, value: unknown): void {
    const added = this.values.has(this.prefix + key) ? 0 : 1;
    this.values.set(this.prefix + key, value);
    this.changed(added);
  }
  delete(key: string): void {
    if (this.values.delete(this.prefix + key)) this.changed(-1);
  }
}

/** All sessions' pins, bounded, savable as JSON with a schema version. */
export class SessionStateStore {
  /** Session id → that session's pins (`strategy\0key` → value), least recently used first. */
  private readonly sessions = new Map<string, Map<string, unknown>>();
  /** Sessions whose pins changed here and are not yet in the backing store. */
  private readonly dirty = new Set<string>();
  private count = 0;

  constructor(private readonly maxEntries = 50_000, private readonly backing?: StateStore) {}

  /** Whether pins live in a store beyond this process (then prefetch and flush matter). */
  get shared(): boolean {
    return this.backing !== undefined;
  }

  /** The pins of one strategy in one session. */
  scope(sessionId: string, strategyId: string): SessionState {
    const values = this.session(sessionId);
    this.trim();
    return new SessionState(values, `${strategyId}\u0000`, (added) => {
      this.count += added;
      this.dirty.add(sessionId);
    });
  }

  /**
   * Reads a session's pins from the backing store (another process may have changed them since);
   * keeps the local ones when the store has none. Throws when the store cannot be read.
   */
  async prefetch(sessionId: string): Promise<void> {
    if (!this.backing) return;
    const [value] = await this.backing.getMany([storeKeyOf(sessionId)]);
    const stored = value === undefined ? undefined : parseStored(value);
    if (!stored) return;
    this.count -= this.sessions.get(sessionId)?.size ?? 0;
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, stored);
    this.count += stored.size;
    this.dirty.delete(sessionId);
  }

  /** Writes the pins of `sessionId` (or of every changed session) that changed here. Throws when the store cannot be written; the pins are read afresh then. */
  async flush(sessionId?: string): Promise<void> {
    if (!this.backing) return;
    const ids = sessionId === undefined ? [...this.dirty] : this.dirty.has(sessionId) ? [sessionId] : [];
    if (ids.length === 0) return;
    for (const id of ids) this.dirty.delete(id);
    try {
      await this.backing.setMany(ids.map((id) => ({ key: storeKeyOf(id), value: JSON.stringify({ schema: SESSION_STATE_SCHEMA_VERSION, entries: [...(this.sessions.get(id) ?? [])] }) })));
    } catch (error) {
      for (const id of ids) this.forget(id);
      throw error;
    }
  }

  /** A copy of one session's pins, for {@link restore} (a run that tries a second pass puts back what the first one wrote). */
  snapshot(sessionId: string): ReadonlyMap<string, unknown> {
    return new Map(this.sessions.get(sessionId) ?? []);
  }

  /** Puts a session's pins back as {@link snapshot} copied them. */
  restore(sessionId: string, pins: ReadonlyMap<string, unknown>): void {
    const values = this.session(sessionId);
    this.count += pins.size - values.size;
    values.clear();
    for (const [key, value] of pins) values.set(key, value);
    this.dirty.add(sessionId);
  }

  toJSON(): { schema: number; entries: [string, unknown][] } {
    const entries: [string, unknown][] = [];
    for (const [sessionId, values] of this.sessions) for (const [key, value] of values) entries.push([`${sessionId}\u0000${key}`, value]);
    return { schema: SESSION_STATE_SCHEMA_VERSION, entries };
  }

  static fromJSON(value: unknown): SessionStateStore {
    const store = new SessionStateStore();
    const saved = value as { schema?: unknown; entries?: unknown };
    if (saved?.schema !== SESSION_STATE_SCHEMA_VERSION || !Array.isArray(saved.entries)) {
      throw new Error(`Herald: session state has schema ${String(saved?.schema)}, expected ${SESSION_STATE_SCHEMA_VERSION}`);
    }
    for (const entry of saved.entries) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string') continue;
      const split = entry[0].indexOf('\u0000');
      if (split < 0) continue;
      store.session(entry[0].slice(0, split)).set(entry[0].slice(split + 1), entry[1]);
      store.count++;
    }
    return store;
  }

  private session(sessionId: string): Map<string, unknown> {
    let values = this.sessions.get(sessionId);
    if (values) {
      this.sessions.delete(sessionId);
    } else {
      values = new Map();
    }
    this.sessions.set(sessionId, values);
    return values;
  }

  private forget(sessionId: string): void {
    this.count -= this.sessions.get(sessionId)?.size ?? 0;
    this.sessions.delete(sessionId);
  }

  private trim(): void {
    // Oldest sessions out first; the one in use stays.
    while (this.count > this.maxEntries && this.sessions.size > 1) {
      const oldest = this.sessions.keys().next().value as string;
      this.forget(oldest);
    }
  }
}

function storeKeyOf(sessionId: string): string {
  return `pins:${sessionId}`;
}

function parseStored(value: string): Map<string, unknown> | undefined {
  try {
    const saved = JSON.parse(value) as { schema?: unknown; entries?: unknown };
    if (saved.schema !== SESSION_STATE_SCHEMA_VERSION || !Array.isArray(saved.entries)) return undefined;
    return new Map((saved.entries as unknown[]).filter((entry): entry is [string, unknown] => Array.isArray(entry) && typeof entry[0] === 'string'));
  } catch {
    return undefined;
  }
}

/**
 * Per-session pins: a decision a strategy takes once and replays byte for byte on later
 * turns (tool_pruning's kept set, reasoning_budget's cap). Values must be JSON.
 */

export const SESSION_STATE_SCHEMA_VERSION = 1;

export class SessionState {
  constructor(private readonly values: Map<string, unknown>, private readonly prefix: string) {}

  get<T>(key: string): T | undefined {
    return this.values.get(this.prefix + key) as T | undefined;
  }
  set(key: string, value: unknown): void {
    this.values.set(this.prefix + key, value);
  }
  delete(key: string): void {
    this.values.delete(this.prefix + key);
  }
}

/** All sessions' pins, bounded, savable as JSON with a schema version. */
export class SessionStateStore {
  private readonly values = new Map<string, unknown>();
  constructor(private readonly maxEntries = 50_000) {}

  /** The pins of one strategy in one session. */
  scope(sessionId: string, strategyId: string): SessionState {
    this.trim();
    return new SessionState(this.values, `${sessionId}\u0000${strategyId}\u0000`);
  }

  toJSON(): { schema: number; entries: [string, unknown][] } {
    return { schema: SESSION_STATE_SCHEMA_VERSION, entries: [...this.values] };
  }

  static fromJSON(value: unknown): SessionStateStore {
    const store = new SessionStateStore();
    const saved = value as { schema?: unknown; entries?: unknown };
    if (saved?.schema !== SESSION_STATE_SCHEMA_VERSION || !Array.isArray(saved.entries)) {
      throw new Error(`Herald: session state has schema ${String(saved?.schema)}, expected ${SESSION_STATE_SCHEMA_VERSION}`);
    }
    for (const entry of saved.entries) if (Array.isArray(entry) && typeof entry[0] === 'string') store.values.set(entry[0], entry[1]);
    return store;
  }

  private trim(): void {
    while (this.values.size > this.maxEntries) this.values.delete(this.values.keys().next().value as string);
  }
}

/**
 * The cache-safety memo. A history message's optimized form is decided once, keyed by a
 * chain hash of the configuration, every message before it and its own bytes; on later
 * turns the same prefix is replayed from here byte for byte instead of being decided again.
 */
import type { ChatMessage } from '../chat/types';
import type { MessageElisionSite } from './elisionSites';
import { sha256 } from './hash';

/** 3: entries carry the positions of their real elisions (`sites`). */
export const MEMO_SCHEMA_VERSION = 3;

/** Arrival entries share the map under this prefix (a chain hash never starts with it). */
const ARRIVAL_PREFIX = 'arrival:';

/** Tokens each strategy removed from one message when it was decided. */
export type MessageSavings = Readonly<Record<string, number>>;

interface MemoEntry {
  readonly message: ChatMessage;
  readonly savings?: MessageSavings;
  /** Where the message's real elisions stand, so a replayed message expands exactly. */
  readonly sites?: readonly MessageElisionSite[];
}

export class MessageMemo {
  private readonly entries = new Map<string, MemoEntry>();
  constructor(private readonly maxEntries = 20_000) {}

  get(key: string): ChatMessage | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value?.message;
  }

  /** What each strategy saved on this message when it was decided (replayed turns keep saving it). */
  savings(key: string): MessageSavings | undefined {
    return this.entries.get(key)?.savings;
  }

  /** Where the real elisions of this message stand, as recorded when it was decided. */
  sites(key: string): readonly MessageElisionSite[] {
    return this.entries.get(key)?.sites ?? [];
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, message: ChatMessage, savings?: MessageSavings, sites: readonly MessageElisionSite[] = []): void {
    this.entries.delete(key);
    this.entries.set(key, { message, ...(savings && Object.keys(savings).length > 0 ? { savings } : {}), ...(sites.length > 0 ? { sites } : {}) });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /**
   * The form a message took on arrival, as the current turn's fresh input: what the provider
   * cached for it, so the turn it becomes history starts from these bytes (see `setArrival`).
   */
  arrival(key: string): { message: ChatMessage; savings?: MessageSavings; sites: readonly MessageElisionSite[] } | undefined {
    const entry = this.entries.get(ARRIVAL_PREFIX + key);
    if (entry !== undefined) this.get(ARRIVAL_PREFIX + key);
    return entry === undefined ? undefined : { message: entry.message, ...(entry.savings ? { savings: entry.savings } : {}), sites: entry.sites ?? [] };
  }

  /**
   * Records a fresh message's arrival form under the same chain key it will have as history
   * (the client resends the original bytes next turn): decided once, on arrival.
   */
  setArrival(key: string, message: ChatMessage, savings?: MessageSavings, sites: readonly MessageElisionSite[] = []): void {
    this.set(ARRIVAL_PREFIX + key, message, savings, sites);
  }

  get size(): number {
    return this.entries.size;
  }

  toJSON(): { schema: number; entries: [string, MemoEntry][] } {
    return { schema: MEMO_SCHEMA_VERSION, entries: [...this.entries] };
  }

  static fromJSON(value: unknown): MessageMemo {
    const saved = value as { schema?: unknown; entries?: unknown };
    if (saved?.schema !== MEMO_SCHEMA_VERSION || !Array.isArray(saved.entries)) {
      throw new Error(`Herald: message memo has schema ${String(saved?.schema)}, expected ${MEMO_SCHEMA_VERSION}`);
    }
    const memo = new MessageMemo();
    for (const entry of saved.entries) if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'object' && entry[1] !== null) memo.entries.set(entry[0], entry[1] as MemoEntry);
    return memo;
  }
}

/** Chain hashes: entry i covers the configuration and messages 0..i. */
export function chainHashes(configHash: string, messages: readonly ChatMessage[]): string[] {
  const hashes: string[] = [];
  let previous = configHash;
  for (const message of messages) {
    previous = sha256(previous + '\u0000' + JSON.stringify(message));
    hashes.push(previous);
  }
  return hashes;
}

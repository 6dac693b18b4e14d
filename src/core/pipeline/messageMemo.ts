/**
 * The cache-safety memo. A history message's optimized form is decided once, keyed by a
 * chain hash of the configuration, every message before it and its own bytes; on later
 * turns the same prefix is replayed from here byte for byte instead of being decided again.
 *
 * Cache hints are not content (see `chat/cacheHints.ts`): the chain covers each message
 * without them, an entry holds the decided message without them, and a replay puts back the
 * hints the client put on the message in this request. A client that moves its breakpoints
 * (Copilot does on every request) so keeps its decided history.
 */
import { applyCacheHints, bareContentIndex, barePartIndex, hintedContentIndex, hintedPartIndex, stripCacheHints, type MessageCacheHints } from '../chat/cacheHints';
import type { ChatMessage } from '../chat/types';
import type { MessageElisionSite } from './elisionSites';
import { digestOf, sha256 } from './hash';
import { checkDeadline } from './deadline';
import { GenerationalCache } from '../generationalCache';
import type { StateStore } from '../store/stateStore';

/** 4: entries hold messages without cache hints, their sites indexed so, and the hints Herald added itself (`ownHints`). */
export const MEMO_SCHEMA_VERSION = 4;

/** Arrival entries share the map under this prefix (a chain hash never starts with it). */
const ARRIVAL_PREFIX = 'arrival:';
/**
 * Arrival entries by the message's own content ({@link ownKeyOf}), found when the chain misses:
 * a client that changes an earlier message on resume (Claude Code's `-c` rebuilds the
 * conversation from its transcript) still gets each fresh message's form as it arrived. The
 * arrival form is a function of the message itself (a tool result carries its call's id), so
 * its own bytes name it.
 */
const OWN_ARRIVAL_PREFIX = 'arrival-own:';
/** Decided entries by the message's own content, for the same reason. */
const OWN_DECIDED_PREFIX = 'decided-own:';

/** Tokens each strategy removed from one message when it was decided. */
export type MessageSavings = Readonly<Record<string, number>>;

interface MemoEntry {
  /** The decided message, without cache hints. */
  readonly message: ChatMessage;
  readonly savings?: MessageSavings;
  /** Where the message's real elisions stand (part indexes without breakpoint parts), so a replayed message expands exactly. */
  readonly sites?: readonly MessageElisionSite[];
  /** Hints a strategy put on a message the client had left without any (cache_optimizer's), replayed when the client still puts none. */
  readonly ownHints?: MessageCacheHints;
}

/** A decided message as this request gets it: the client's hints (or Herald's own) in place, and its sites. */
export interface ReplayedMessage {
  readonly message: ChatMessage;
  readonly sites: readonly MessageElisionSite[];
  readonly savings?: MessageSavings;
}

/**
 * The memo's default bounds. Bytes bound it (about what its entries take as JSON, the memo
 * file's size): a 10M-token conversation's history is decided under two keys a message, about
 * 80 MB, and still fits; the entry count only caps the map itself. (A bound of 20,000 entries
 * alone dropped the oldest messages of a 10,000-message conversation, so its next turn decided
 * the whole history again: 10 ms per 10k tokens instead of 2.)
 */
export const DEFAULT_MEMO_MAX_BYTES = 256 * 1024 * 1024;
export const DEFAULT_MEMO_MAX_ENTRIES = 200_000;

/**
 * Decided messages by chain hash. Synchronous for the run (strategies and the runner read it
 * inline); with a backing {@link StateStore} shared by several processes, the run first
 * {@link prefetch}es the keys it will read and afterwards {@link flush}es what it decided.
 * Entries are content-addressed and written once (the first decision stands), so the local map
 * is a cache that never goes stale.
 */
export class MessageMemo {
  private readonly entries = new Map<string, MemoEntry>();
  /** Each entry's approximate size in bytes ({@link approximateBytes}), and their sum. */
  private readonly sizes = new Map<string, number>();
  private totalBytes = 0;
  /**
   * Keys decided here and not yet in the backing store, each with the group its write may share
   * a file with (see {@link decidingFor}; undefined: none).
   */
  private readonly unwritten = new Map<string, string | undefined>();
  /** The group of the decisions being recorded now (set by {@link decidingFor}). */
  private group: string | undefined;

  constructor(private readonly maxEntries = DEFAULT_MEMO_MAX_ENTRIES, private readonly backing?: StateStore, private readonly maxBytes = DEFAULT_MEMO_MAX_BYTES) {}

  /** Whether entries live in a store beyond this process (then prefetch and flush matter). */
  get shared(): boolean {
    return this.backing !== undefined;
  }

  /**
   * Loads from the backing store the entries of `keys` this process does not hold (decided
   * history by chain hash, or with `arrival` the fresh input's arrival forms). Throws when the
   * store cannot be read: the caller fails open.
   */
  async prefetch(keys: readonly string[], arrival = false): Promise<void> {
    await this.load(keys.map((key) => (arrival ? ARRIVAL_PREFIX + key : key)));
  }

  /**
   * Loads the entries kept under messages' own keys ({@link ownKeyOf}): their decided and their
   * arrival forms, which a run consults when a message's chain misses (see {@link decidedOwn}).
   */
  async prefetchOwn(ownKeys: readonly string[]): Promise<void> {
    await this.load(ownKeys.flatMap((key) => [OWN_DECIDED_PREFIX + key, OWN_ARRIVAL_PREFIX + key]));
  }

  private async load(keys: readonly string[]): Promise<void> {
    if (!this.backing) return;
    const wanted = [...new Set(keys)].filter((key) => !this.entries.has(key));
    if (wanted.length === 0) return;
    const values = await this.backing.getMany(wanted.map(storeKeyOf));
    values.forEach((value, index) => {
      const entry = value === undefined ? undefined : parseStored(value);
      if (entry) this.put(wanted[index]!, entry);
    });
  }

  /**
   * Writes what this process decided to the backing store. An entry another process wrote
   * first stands: the local one is dropped, so the next prefetch takes the stored decision.
   * On a failure every unwritten entry is dropped too (nothing may be replayed here that the
   * store does not hold) and the error is thrown: the caller sends the request as it came.
   */
  async flush(): Promise<void> {
    if (!this.backing || this.unwritten.size === 0) return;
    const pending = [...this.unwritten].filter(([key]) => this.entries.has(key));
    const keys = pending.map(([key]) => key);
    this.unwritten.clear();
    try {
      const written = await this.backing.setMany(pending.map(([key, group]) => ({ key: storeKeyOf(key), value: JSON.stringify({ schema: MEMO_SCHEMA_VERSION, entry: this.entries.get(key) }), ifAbsent: true, ...(group !== undefined ? { group } : {}) })));
      written.forEach((done, index) => {
        if (!done) this.remove(keys[index]!);
      });
    } catch (error) {
      for (const key of keys) this.remove(key);
      throw error;
    }
  }

  /** Handles of every elision recorded in the entries of `keys` (nested ones included). */
  handlesOf(keys: readonly string[], arrival = false): string[] {
    const handles = new Set<string>();
    const visit = (sites: readonly { handle: string; nested?: readonly { handle: string }[] }[] | undefined): void => {
      for (const site of sites ?? []) {
        handles.add(site.handle);
        visit(site.nested as typeof sites);
      }
    };
    for (const key of keys) visit(this.entries.get(arrival ? ARRIVAL_PREFIX + key : key)?.sites);
    return [...handles];
  }

  /** Handles of every elision recorded under messages' own keys (decided and arrival forms). */
  handlesOfOwn(ownKeys: readonly string[]): string[] {
    return [...new Set([...this.handlesOf(ownKeys.map((key) => OWN_DECIDED_PREFIX + key)), ...this.handlesOf(ownKeys.map((key) => OWN_ARRIVAL_PREFIX + key))])];
  }


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

  /**
   * The decided message for a request whose message at this place carries `hints` (as
   * {@link stripCacheHints} took them from it): those hints where the client put them, or the
   * ones Herald added itself when the client put none; its sites indexed to match.
   */
  replay(key: string, hints: MessageCacheHints | undefined): ReplayedMessage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    const applied = hints ?? entry.ownHints;
    return {
      message: applyCacheHints(entry.message, applied),
      sites: (entry.sites ?? []).map((site) => ({ ...site, partIndex: hintedPartIndex(applied, site.partIndex), contentIndex: hintedContentIndex(applied, site.partIndex, site.contentIndex) })),
      ...(entry.savings ? { savings: entry.savings } : {}),
    };
  }

  /**
   * Records a decision: `decided` is the optimized message, `inputHints` the hints the
   * client's message carried (undefined: none), `sites` indexed as in `decided`.
   */
  decide(key: string, decided: ChatMessage, inputHints: MessageCacheHints | undefined, savings?: MessageSavings, sites: readonly MessageElisionSite[] = [], ownKey?: string): void {
    if (ownKey !== undefined) this.decide(OWN_DECIDED_PREFIX + ownKey, decided, inputHints, savings, sites);
    const { bare, hints } = stripCacheHints(decided);
    const bareSites = sites.flatMap((site) => {
      const partIndex = barePartIndex(hints, site.partIndex);
      return partIndex < 0 ? [] : [{ ...site, partIndex, contentIndex: bareContentIndex(hints, partIndex, site.contentIndex) }];
    });
    this.put(key, { message: bare, ...(savings && Object.keys(savings).length > 0 ? { savings } : {}), ...(bareSites.length > 0 ? { sites: bareSites } : {}), ...(!inputHints && hints ? { ownHints: hints } : {}) });
    if (this.backing) this.unwritten.set(key, this.group);
  }

  /**
   * Records what `record` decides (synchronously) as one group: a store may keep the group's
   * entries together (the folder store writes them as one file, linked under each key, instead of
   * a file each). A run records its request's decisions so, with its scope as the group: a
   * tenant's entries are never kept with another's.
   */
  decidingFor(group: string, record: () => void): void {
    const outer = this.group;
    this.group = group;
    try {
      record();
    } finally {
      this.group = outer;
    }
  }

  set(key: string, message: ChatMessage, savings?: MessageSavings, sites: readonly MessageElisionSite[] = []): void {
    this.put(key, { message, ...(savings && Object.keys(savings).length > 0 ? { savings } : {}), ...(sites.length > 0 ? { sites } : {}) });
    if (this.backing) this.unwritten.set(key, this.group);
  }

  /** The memo's approximate size in bytes (what bounds it). */
  get bytes(): number {
    return this.totalBytes;
  }

  private put(key: string, entry: MemoEntry): void {
    this.remove(key);
    this.add(key, entry);
    // The oldest go first; the entry just written stays, however large.
    while (this.entries.size > 1 && (this.entries.size > this.maxEntries || this.totalBytes > this.maxBytes)) this.remove(this.entries.keys().next().value as string);
  }

  private add(key: string, entry: MemoEntry): void {
    const size = key.length + approximateBytes(entry);
    this.entries.set(key, entry);
    this.sizes.set(key, size);
    this.totalBytes += size;
  }

  private remove(key: string): void {
    if (!this.entries.delete(key)) return;
    this.totalBytes -= this.sizes.get(key) ?? 0;
    this.sizes.delete(key);
  }

  /**
   * The form a message took on arrival, as the current turn's fresh input: what the provider
   * cached for it, so the turn it becomes history starts from these bytes (see `setArrival`);
   * with this request's hints in place, as `replay` gives a decided message.
   */
  /**
   * The decided form of a message an earlier turn decided under another chain (an earlier
   * message changed since: a resume that rebuilt the conversation), found by its own bytes.
   */
  decidedOwn(ownKey: string, hints: MessageCacheHints | undefined): ReplayedMessage | undefined {
    return this.replay(OWN_DECIDED_PREFIX + ownKey, hints);
  }

  arrival(key: string, hints: MessageCacheHints | undefined, ownKey?: string): ReplayedMessage | undefined {
    return this.replay(ARRIVAL_PREFIX + key, hints) ?? (ownKey !== undefined ? this.replay(OWN_ARRIVAL_PREFIX + ownKey, hints) : undefined);
  }

  /**
   * Records a fresh message's arrival form under the same chain key it will have as history
   * (the client resends the original bytes next turn): decided once, on arrival. Kept without
   * cache hints, as `decide` keeps a decided message; with `ownKey` ({@link ownKeyOf}) also
   * under the message's own content.
   */
  setArrival(key: string, message: ChatMessage, inputHints: MessageCacheHints | undefined, savings?: MessageSavings, sites: readonly MessageElisionSite[] = [], ownKey?: string): void {
    this.decide(ARRIVAL_PREFIX + key, message, inputHints, savings, sites);
    if (ownKey !== undefined) this.decide(OWN_ARRIVAL_PREFIX + ownKey, message, inputHints, savings, sites);
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
    for (const entry of saved.entries) if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'object' && entry[1] !== null) memo.put(entry[0], entry[1] as MemoEntry);
    return memo;
  }
}

/** About what a value takes as JSON, in bytes (a character a byte): linear in its size. */
function approximateBytes(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value !== 'object' || value === null) return 8;
  let total = 2;
  if (Array.isArray(value)) {
    for (const item of value) total += approximateBytes(item) + 1;
    return total;
  }
  // Keys and a lookup each (an entries array of pairs per object was most of what this allocated).
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) total += key.length + 4 + approximateBytes(record[key]);
  return total;
}

/** Where an entry lives in the backing store. */
function storeKeyOf(key: string): string {
  return `memo:${key}`;
}

/** A stored entry, or undefined when it is of another schema or not an entry. */
function parseStored(value: string): MemoEntry | undefined {
  try {
    const saved = JSON.parse(value) as { schema?: unknown; entry?: unknown };
    if (saved.schema !== MEMO_SCHEMA_VERSION || typeof saved.entry !== 'object' || saved.entry === null) return undefined;
    const entry = saved.entry as Partial<MemoEntry>;
    return typeof entry.message === 'object' && entry.message !== null ? (entry as MemoEntry) : undefined;
  } catch {
    return undefined;
  }
}

/** A message's own key: the configuration and the message's bytes (without cache hints), nothing before it. */
export function ownKeyOf(configHash: string, bare: ChatMessage): string {
  return chainLink(`own\u0000${configHash}`, digestOf(bare));
}

/** Chain hashes: entry i covers the configuration and messages 0..i (each message by the digest of its JSON). */
export function chainHashes(configHash: string, messages: readonly ChatMessage[]): string[] {
  const hashes: string[] = [];
  let previous = configHash;
  for (const message of messages) {
    checkDeadline();
    previous = chainLink(previous, digestOf(message));
    hashes.push(previous);
  }
  return hashes;
}

/**
 * Links worked out on earlier turns: a client re-sends its whole history each turn, so each
 * link would be hashed again (a SHA-256 of two digests, a few microseconds each). Bounded in
 * two generations (a full FIFO `Map` made every new link cost more than its hash).
 */
const links = new GenerationalCache<string, string>(20_000);

function chainLink(previous: string, digest: string): string {
  const key = `${previous}\u0000${digest}`;
  let link = links.get(key);
  if (link === undefined) {
    link = sha256(key);
    links.set(key, link);
  }
  return link;
}

/**
 * The stash: originals of everything Herald elides, content-addressed by an HMAC of the
 * original under a per-install key. `elide` is synchronous (strategies call it inline) and
 * queues the write; `flush` persists; `retrieve` returns the exact original.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { BlobInfo, BlobStore } from './blobStore';
import { findMarkers, formatMarker } from './marker';
import { locateReplacement, type ElisionSite } from './elisionSite';
import { describeError } from '../errors';

/** Saved entries carry this; loading another version is refused loudly. */
export const STASH_SCHEMA_VERSION = 1;

export interface StashOptions {
  /** Where entries are kept. */
  readonly store: BlobStore;
  /** The per-install secret the handles are derived from (32 random bytes when not given). */
  readonly key?: Uint8Array;
  /** Entries unused for longer than this are removed at the next sweep. Default 7 days. */
  readonly ttlMs?: number;
  /** Total size above which the least recently used entries are evicted. Default 256 MiB. */
  readonly maxBytes?: number;
  /** The clock, for tests. */
  readonly now?: () => number;
  /** Non-fatal problems (a corrupted entry, a failed write), with a machine-readable code. */
  readonly onProblem?: (code: string, message: string) => void;
}

export interface StashEntry {
  readonly schema: number;
  readonly handle: string;
  /** Which strategy elided it. */
  readonly kind: string;
  readonly original: string;
  /** Every text that stood in for the original in a request (each contains the marker). */
  readonly replacements: readonly string[];
  readonly created: number;
}

export interface ElideInput {
  readonly original: string;
  /** What was removed and how much, e.g. "412 lines elided". */
  readonly summary: string;
  /** The strategy id. */
  readonly kind: string;
  /** Builds the text that replaces the original from the marker; default: the marker alone. */
  readonly render?: (marker: string) => string;
}

export interface Elision {
  readonly handle: string;
  readonly marker: string;
  readonly replacement: string;
}

const DEFAULT_TTL_MS = 7 * 24 * 3600 * 1000;
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/**
 * A flush sweeps (lists and stats every entry) at most this often, unless what this stash
 * wrote since its last sweep may have taken it over its cap: a gateway flushes on every
 * request, and a listing per request grows with the stash (issue 26: a tenant's sweep after
 * each write was a tenth of the gateway's CPU a request). Entries other processes write to
 * the same store are counted at the next sweep, so the cap can be passed by what they wrote
 * for up to this long.
 */
const SWEEP_INTERVAL_MS = 60_000;
/** Bytes an entry may take in a store per character of its JSON: UTF-8 takes up to 3, a UTF-16 string 2. */
const STORED_BYTES_PER_CHAR = 3;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export class Stash {
  private readonly key: Uint8Array;
  private readonly pending = new Map<string, StashEntry>();
  private readonly cache = new Map<string, StashEntry>();
  private readonly now: () => number;
  private writing: Promise<void> = Promise.resolve();
  /** Handles whose last write failed: a request that still carries one of them must not go out. */
  private readonly unwritten = new Set<string>();
  /**
   * Handles elided here before this stash had seen their entry: the store may already hold one
   * from another process (an earlier `herald optimize`, the extension before a restart), whose
   * replacements still stand in requests replayed from the memo. Their write merges with it.
   */
  private readonly unseen = new Set<string>();
  private lastSweep = Number.NEGATIVE_INFINITY;
  /** The original last given a handle, and its handle (see handleFor). */
  private lastOriginal: string | undefined;
  private lastHandle: string | undefined;
  /** At most the bytes of this stash's entries in the store: the total its last sweep found, plus what it wrote since. */
  private storedBytes = 0;

  constructor(private readonly options: StashOptions) {
    this.key = options.key ?? randomBytes(32);
    this.now = options.now ?? Date.now;
  }

  /** The handle an original gets: stable for the same bytes and key, unguessable without the key. */
  handleFor(original: string): string {
    // A strategy previews an elision and then makes it: the same original twice in a row.
    if (original === this.lastOriginal && this.lastHandle !== undefined) return this.lastHandle;
    const handle = this.handleOf(original);
    this.lastOriginal = original;
    this.lastHandle = handle;
    return handle;
  }

  private handleOf(original: string): string {
    const digest = createHmac('sha256', this.key).update(original, 'utf8').digest();
    let handle = 'hr_';
    // 16 base32 characters = 80 bits.
    let bits = 0;
    let value = 0;
    for (const byte of digest) {
      value = (value << 8) | byte;
      bits += 8;
      while (bits >= 5 && handle.length < 19) {
        handle += BASE32[(value >>> (bits - 5)) & 31];
        bits -= 5;
      }
      if (handle.length >= 19) break;
    }
    return handle;
  }

  /**
   * The elision {@link elide} would make, with nothing stashed: a strategy prices a replacement
   * with it first, so one that does not pay leaves no entry behind.
   */
  preview(input: ElideInput): Elision {
    const handle = this.handleFor(input.original);
    const marker = formatMarker(input.summary, handle);
    const replacement = input.render ? input.render(marker) : marker;
    if (!replacement.includes(marker)) throw new Error(`Herald: a replacement for ${handle} must contain its marker`);
    return { handle, marker, replacement };
  }

  /** Stashes an original and returns the text to put in its place. */
  elide(input: ElideInput): Elision {
    const { handle, marker, replacement } = this.preview(input);
    const known = this.pending.get(handle) ?? this.cache.get(handle);
    const replacements = known ? (known.replacements.includes(replacement) ? known.replacements : [...known.replacements, replacement]) : [replacement];
    const entry: StashEntry = { schema: STASH_SCHEMA_VERSION, handle, kind: known?.kind ?? input.kind, original: input.original, replacements, created: known?.created ?? this.now() };
    if (!known) this.unseen.add(handle);
    this.cache.set(handle, entry);
    if (known !== entry) this.pending.set(handle, entry);
    return { handle, marker, replacement };
  }

  /**
   * Writes queued entries; then evicts by age and size. Failures are reported, never thrown;
   * the handles whose entries could not be written are returned, so a caller can take back a
   * request whose markers would otherwise point at nothing.
   */
  async flush(): Promise<readonly string[]> {
    const batch = [...this.pending.values()];
    this.pending.clear();
    const previous = this.writing;
    const failed: string[] = [];
    this.writing = (async () => {
      await previous;
      for (const batched of batch) {
        try {
          const entry = this.unseen.has(batched.handle) ? await this.mergedWithStored(batched) : batched;
          const text = JSON.stringify(entry);
          await this.options.store.put(entry.handle, text);
          this.storedBytes += text.length * STORED_BYTES_PER_CHAR;
          this.unseen.delete(entry.handle);
          this.unwritten.delete(entry.handle);
        } catch (error) {
          failed.push(batched.handle);
          this.unwritten.add(batched.handle);
          this.options.onProblem?.('stash-write-failed', `Herald: could not write stash entry ${batched.handle}: ${describeError(error)}`);
        }
      }
      if (this.now() - this.lastSweep < SWEEP_INTERVAL_MS && this.storedBytes <= (this.options.maxBytes ?? DEFAULT_MAX_BYTES)) return;
      this.lastSweep = this.now();
      for (const handle of await this.sweep(new Set(batch.map((entry) => entry.handle)))) {
        // Evicted the moment it was written: as good as never written.
        failed.push(handle);
        this.unwritten.add(handle);
      }
    })();
    await this.writing;
    return failed;
  }

  /**
   * `entry` joined with the entry the store already holds for its handle (written by another
   * process): every replacement either one knows, the older creation time. Without this the
   * write would drop replacements that requests replayed from the memo still carry, and their
   * markers would no longer expand although `retrieve` still finds the original.
   */
  private async mergedWithStored(entry: StashEntry): Promise<StashEntry> {
    let text: string | undefined;
    try {
      text = await this.options.store.get(entry.handle);
    } catch {
      return entry;
    }
    const stored = text === undefined ? undefined : parseEntry(text, entry.handle);
    if (stored === undefined || typeof stored === 'string' || stored.original !== entry.original) return entry;
    const current = this.cache.get(entry.handle) ?? entry;
    const replacements = [...stored.replacements, ...[...entry.replacements, ...current.replacements].filter((replacement, index, all) => !stored.replacements.includes(replacement) && all.indexOf(replacement) === index)];
    const merged: StashEntry = { ...entry, kind: stored.kind, replacements, created: Math.min(stored.created, entry.created) };
    this.cache.set(entry.handle, { ...current, kind: stored.kind, replacements, created: merged.created });
    return merged;
  }

  /**
   * Handles whose entries could not be written (by any caller's flush, so two pipelines
   * sharing this stash both see a failure); cleared when a later write succeeds.
   */
  unwrittenHandles(): ReadonlySet<string> {
    return this.unwritten;
  }

  /**
   * Whether this stash gave out `handle` (elided it, or loaded its entry, in this process), without
   * touching the store. A marker text alone proves nothing: a tool output can quote one, or print
   * a well-formed one with a made-up handle. Requests arrive as originals, so the markers of this
   * process's own elisions are the ones that mean "already elided".
   */
  issued(handle: string): boolean {
    return this.cache.has(handle);
  }

  /**
   * The entry of a handle this stash {@link issued}, without touching the store: what the
   * pipeline needs, synchronously, to tell where a strategy put a replacement.
   */
  issuedEntry(handle: string): StashEntry | undefined {
    return this.cache.get(handle);
  }

  /** Whether `text` contains a marker whose handle this stash {@link issued}. */
  hasIssuedMarker(text: string): boolean {
    return findMarkers(text).some((marker) => this.issued(marker.handle));
  }

  /** The original behind a handle, byte for byte, or undefined when unknown, expired or corrupted. */
  async retrieve(handle: string): Promise<string | undefined> {
    return (await this.entry(handle))?.original;
  }

  async entry(handle: string): Promise<StashEntry | undefined> {
    const cached = this.cache.get(handle);
    if (cached) return cached;
    let text: string | undefined;
    try {
      text = await this.options.store.get(handle);
    } catch (error) {
      this.options.onProblem?.('stash-read-failed', `Herald: could not read stash entry ${handle}: ${describeError(error)}`);
      return undefined;
    }
    if (text === undefined) return undefined;
    const entry = parseEntry(text, handle);
    if (typeof entry === 'string') {
      this.options.onProblem?.('stash-entry-corrupted', entry);
      return undefined;
    }
    this.cache.set(handle, entry);
    void this.options.store.touch(handle).catch(() => undefined);
    return entry;
  }

  /**
   * Expansion by text alone: replaces every marker in `text` whose stashed replacement stands
   * there with its original, repeating for nested elisions. Markers with unknown handles, or
   * whose replacement does not stand around them (look-alikes inside tool output), are left
   * exactly as they are. A verbatim copy of a real replacement (the model quoting a marker it
   * was shown) cannot be told from the real one by text, so it is expanded too; where the
   * positions of the real elisions are known, use {@link expandAt}.
   */
  async expandText(text: string, maxDepth = 8): Promise<string> {
    let current = text;
    for (let depth = 0; depth < maxDepth; depth++) {
      const markers = findMarkers(current);
      if (markers.length === 0) return current;
      const located: { start: number; length: number; original: string }[] = [];
      for (const marker of markers) {
        const entry = await this.entry(marker.handle);
        if (!entry) continue;
        for (const replacement of entry.replacements) {
          const start = locateReplacement(current, replacement, marker.start, marker.end);
          if (start < 0) continue;
          located.push({ start, length: replacement.length, original: entry.original });
          break;
        }
      }
      // An elision whose replacement holds another marker is undone first: the inner marker was
      // in the text it replaced, so it is met again inside that original on the next pass.
      const outermost: typeof located = [];
      let end = -1;
      for (const span of located.sort((a, b) => a.start - b.start || b.length - a.length)) {
        if (span.start < end) continue;
        outermost.push(span);
        end = span.start + span.length;
      }
      if (outermost.length === 0) return current;
      // Right to left, so earlier positions stay valid.
      for (const span of outermost.reverse()) current = current.slice(0, span.start) + span.original + current.slice(span.start + span.length);
    }
    return current;
  }

  /**
   * Expands only the real elisions at `sites` (as the pipeline recorded them), then the real
   * elisions recorded inside each original, and nothing else: a copy of a real replacement
   * elsewhere stays as it is. A site whose handle is unknown, or where the text does not hold
   * one of that handle's replacements, or that overlaps a later site, is left unexpanded.
   */
  async expandAt(text: string, sites: readonly ElisionSite[], maxDepth = 32): Promise<string> {
    if (sites.length === 0 || maxDepth <= 0) return text;
    let current = text;
    let end = text.length;
    // Right to left, so earlier positions stay valid.
    for (const site of [...sites].sort((a, b) => b.start - a.start)) {
      if (site.start < 0 || site.start + site.length > end) continue;
      const entry = await this.entry(site.handle);
      if (!entry || !entry.replacements.includes(current.slice(site.start, site.start + site.length))) {
        this.options.onProblem?.('elision-site-mismatch', `Herald: no replacement of ${site.handle} stands at offset ${site.start}; left as it is`);
        continue;
      }
      const original = await this.expandAt(entry.original, site.nested ?? [], maxDepth - 1);
      current = current.slice(0, site.start) + original + current.slice(site.start + site.length);
      end = site.start;
    }
    return current;
  }

  /**
   * Evicts expired entries, then the least recently used until the total fits the cap. Entries
   * of the batch just written go last; the ones that had to go anyway (the batch alone is over
   * the cap) are returned, so the caller knows their markers would point at nothing.
   */
  private async sweep(justWritten: ReadonlySet<string>): Promise<string[]> {
    const ttl = this.options.ttlMs ?? DEFAULT_TTL_MS;
    const maxBytes = this.options.maxBytes ?? DEFAULT_MAX_BYTES;
    const evictedFresh: string[] = [];
    try {
      // Entries that can never fit go first (so one giant does not push out everything else),
      // then the least recently used; the batch just written goes last.
      const rank = (info: BlobInfo): number => (info.size > maxBytes ? 0 : justWritten.has(info.key) ? 2 : 1);
      const infos = (await this.options.store.list()).sort((a, b) => rank(a) - rank(b) || a.touched - b.touched);
      let total = infos.reduce((sum, info) => sum + info.size, 0);
      const cutoff = this.now() - ttl;
      // Counted as bytes the store holds now; corrected below as entries go.
      this.storedBytes = total;
      for (const info of infos) {
        const fresh = justWritten.has(info.key);
        if ((fresh || info.touched >= cutoff) && total <= maxBytes) continue;
        await this.options.store.delete(info.key);
        this.cache.delete(info.key);
        total -= info.size;
        this.storedBytes = total;
        if (fresh) {
          evictedFresh.push(info.key);
          this.options.onProblem?.('stash-full', `Herald: stash entry ${info.key} (${info.size} bytes) does not fit the stash's ${maxBytes}-byte cap; it was not kept`);
        }
      }
    } catch (error) {
      this.options.onProblem?.('stash-sweep-failed', `Herald: could not sweep the stash: ${describeError(error)}`);
    }
    return evictedFresh;
  }
}

function parseEntry(text: string, handle: string): StashEntry | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `Herald: stash entry ${handle} is corrupted (not valid JSON); it was ignored`;
  }
  if (typeof value !== 'object' || value === null) return `Herald: stash entry ${handle} is corrupted; it was ignored`;
  const entry = value as Partial<StashEntry>;
  if (entry.schema !== STASH_SCHEMA_VERSION) return `Herald: stash entry ${handle} has schema ${String(entry.schema)}, expected ${STASH_SCHEMA_VERSION}; it was ignored`;
  if (entry.handle !== handle || typeof entry.original !== 'string' || !Array.isArray(entry.replacements)) {
    return `Herald: stash entry ${handle} is incomplete; it was ignored`;
  }
  return entry as StashEntry;
}


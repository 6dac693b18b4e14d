/**
 * o200k_base byte-pair encoding of one pre-token piece, counted: how many tokens BPE leaves. The
 * ranks are gpt-tokenizer's data (`gpt-tokenizer/bpeRanks/o200k_base`: index the rank, value the
 * token's text, or its bytes where they are not UTF-8); the merge is the standard one (tiktoken's,
 * gpt-tokenizer's): merge the adjacent pair whose joined bytes have the lowest rank, the leftmost
 * on a tie, until no pair is a token.
 *
 * Written here rather than calling gpt-tokenizer's `countTokens` for each new piece because that
 * call runs o200k's regular expression and a special-token search over the piece again (the
 * piece is already one), and its merge decodes every candidate pair's bytes to a string to look
 * it up: the 1,566 pieces a 100k-token conversation has and another session lacks took 6.5 to
 * 7.6 ms there (its own cache empty), 1.3 to 1.7 ms here. A piece of ASCII is merged on its own
 * characters (an ASCII character is its byte), any other on its UTF-8 bytes held one to a
 * character (a "binary" string); ranks come from three tables by the length looked up. Merging
 * bytes, this counts U+FEFF as tiktoken does, where gpt-tokenizer's decoder drops it (see
 * test/support/bytePairOracle.ts). `o200kCount.test.ts` holds the counts to gpt-tokenizer's and to
 * a plain reading of the merge.
 */
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';

/**
 * Tokens of more than {@link MAX_SHORT} bytes, keyed by their bytes one character a byte (an
 * ASCII token is its own text); the shorter ones are in the short table. Built when first needed.
 */
let longRanks: Map<string, number> | undefined;

/**
 * Tokens of up to six bytes (most lookups of a merge, and most pieces), in an open-addressed
 * table keyed by a number that spells the bytes out (the length, then eight bits a byte): one
 * probe of two typed arrays, no string made or hashed, where a `Map` of 200,000 strings costs
 * several dependent reads of memory a cold decision has not touched for a while.
 */
const MAX_SHORT = 6;
let shortKeys = new Float64Array(0);
let shortRanks = new Int32Array(0);
let shortMask = 0;

/** The rank of each two-byte token by its bytes (first << 8 | second), -1 where the pair is none. */
const pairTable = new Int32Array(1 << 16).fill(-1);

function rankTable(): Map<string, number> {
  if (longRanks !== undefined) return longRanks;
  const table = new Map<string, number>();
  const data = o200kRanks as readonly (string | readonly number[] | undefined)[];
  const short: [string, number][] = [];
  for (let rank = 0; rank < data.length; rank++) {
    const token = data[rank];
    if (token === undefined) continue;
    const bytes = typeof token === 'string' ? binaryOf(token) : String.fromCharCode(...token);
    if (bytes.length > MAX_SHORT) table.set(bytes, rank);
    else short.push([bytes, rank]);
    if (bytes.length === 2) pairTable[(bytes.charCodeAt(0) << 8) | bytes.charCodeAt(1)] = rank;
  }
  let slots = 1;
  while (slots < 2 * short.length) slots *= 2;
  shortKeys = new Float64Array(slots);
  shortRanks = new Int32Array(slots);
  shortMask = slots - 1;
  for (const [bytes, rank] of short) {
    let key = bytes.length;
    let hash = 0x811c9dc5;
    for (let index = 0; index < bytes.length; index++) {
      key = key * 256 + bytes.charCodeAt(index);
      hash = Math.imul(hash ^ bytes.charCodeAt(index), 0x01000193);
    }
    let slot = hash & shortMask;
    while (shortKeys[slot] !== 0) slot = (slot + 1) & shortMask;
    shortKeys[slot] = key;
    shortRanks[slot] = rank;
  }
  longRanks = table;
  return table;
}

/** The rank of the token bytes[start, end) (one to six bytes, one character a byte), or -1. */
function shortRank(bytes: string, start: number, end: number): number {
  let key = end - start;
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) {
    const code = bytes.charCodeAt(index);
    key = key * 256 + code;
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  let slot = hash & shortMask;
  for (;;) {
    const kept = shortKeys[slot]!;
    if (kept === key) return shortRanks[slot]!;
    if (kept === 0) return -1;
    slot = (slot + 1) & shortMask;
  }
}

/** Whether every UTF-16 unit of text[start, end) is below 128. */
function isAscii(text: string, start = 0, end = text.length): boolean {
  for (let index = start; index < end; index++) if (text.charCodeAt(index) > 127) return false;
  return true;
}

/**
 * The UTF-8 bytes of `text`, one character a byte. A lone surrogate becomes U+FFFD's bytes, as
 * the TextEncoder gpt-tokenizer uses writes it.
 */
function binaryOf(text: string): string {
  if (isAscii(text)) return text;
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** Pieces longer than this are merged through a heap (a long run of spaces or line breaks is one piece). */
const MAX_SCANNED_MERGE = 96;
/** Scratch for the scanned merge: where each part starts, and the rank of each part joined with the next. */
const starts = new Int32Array(MAX_SCANNED_MERGE + 1);
const pairRanks = new Float64Array(MAX_SCANNED_MERGE);

/** BPE tokens of text[start, end), one o200k pre-token piece. */
export function bpeCount(text: string, start: number, end: number): number {
  if (end - start === 1 && text.charCodeAt(start) < 128) return 1; // every byte is a token of its own
  if (end <= start) return 0;
  const table = rankTable();
  if (isAscii(text, start, end)) {
    // An ASCII character is its byte: a short piece is looked up where it lies.
    if (end - start <= MAX_SHORT) return shortRank(text, start, end) >= 0 ? 1 : mergedParts(text.slice(start, end), table);
    const bytes = text.slice(start, end);
    return table.has(bytes) ? 1 : mergedParts(bytes, table);
  }
  const bytes = binaryOf(text.slice(start, end));
  // A character past 127 is two bytes or more, so the piece is at least a pair.
  if (rankOf(bytes, 0, bytes.length, table) !== Infinity) return 1;
  return mergedParts(bytes, table);
}

/** How many parts the merge leaves of `bytes` (two or more bytes, not itself a token). */
function mergedParts(bytes: string, table: Map<string, number>): number {
  if (bytes.length > MAX_SCANNED_MERGE) return heapMergedParts(bytes, table);
  const length = bytes.length;
  // Parts [starts[i], starts[i + 1]); pairRanks[i] is the rank of parts i and i + 1 joined.
  let parts = length;
  for (let index = 0; index <= length; index++) starts[index] = index;
  for (let index = 0; index + 1 < length; index++) {
    const rank = pairTable[(bytes.charCodeAt(index) << 8) | bytes.charCodeAt(index + 1)]!;
    pairRanks[index] = rank < 0 ? Infinity : rank;
  }
  while (parts > 1) {
    let lowest = Infinity;
    let at = -1;
    for (let index = 0; index + 1 < parts; index++) {
      if (pairRanks[index]! < lowest) {
        lowest = pairRanks[index]!;
        at = index;
      }
    }
    if (at < 0) break;
    // Part at+1 joins part at: drop its start and the pair rank that joined them.
    starts.copyWithin(at + 1, at + 2, parts + 1);
    pairRanks.copyWithin(at + 1, at + 2, parts);
    parts--;
    pairRanks[at] = at + 1 < parts ? rankOf(bytes, starts[at]!, starts[at + 2]!, table) : Infinity;
    if (at > 0) pairRanks[at - 1] = rankOf(bytes, starts[at - 1]!, starts[at + 1]!, table);
  }
  return parts;
}

/** The rank of bytes[start, end) as one token, or Infinity. */
function rankOf(bytes: string, start: number, end: number, table: Map<string, number>): number {
  const length = end - start;
  if (length === 2) {
    const rank = pairTable[(bytes.charCodeAt(start) << 8) | bytes.charCodeAt(start + 1)]!;
    return rank < 0 ? Infinity : rank;
  }
  if (length <= MAX_SHORT) {
    const rank = shortRank(bytes, start, end);
    return rank < 0 ? Infinity : rank;
  }
  return table.get(bytes.slice(start, end)) ?? Infinity;
}

/**
 * The same merge for a long piece, in n log n: the candidate pairs in a binary heap ordered by
 * rank, then by where the pair starts (the leftmost of equal ranks first, as the scan takes it),
 * each stale entry (a part that has since grown or gone) dropped when it comes up. Scanning every
 * pair for the lowest at each merge made a run of 100,000 spaces take seconds.
 */
function heapMergedParts(bytes: string, table: Map<string, number>): number {
  const length = bytes.length;
  // Parts by their first byte: the next part's start (length past the last), the previous one's (-1 before the first).
  const next = new Int32Array(length);
  const previous = new Int32Array(length);
  for (let index = 0; index < length; index++) {
    next[index] = index + 1;
    previous[index] = index - 1;
  }
  // Entries rank * 2^32 + start: exact in a double for ranks under 2^20 and starts under 2^32.
  const heap = new PairHeap(length);
  const pairAt = (start: number): number => (next[start]! < length ? rankOf(bytes, start, next[next[start]!]!, table) : Infinity);
  for (let start = 0; start + 1 < length; start++) {
    const rank = pairAt(start);
    if (rank !== Infinity) heap.push(rank * 2 ** 32 + start);
  }
  let parts = length;
  const alive = new Uint8Array(length).fill(1);
  while (heap.size > 0) {
    const entry = heap.pop();
    const start = entry % 2 ** 32;
    const rank = (entry - start) / 2 ** 32;
    // Stale unless the part still starts here and it and the next one still join to this rank.
    if (alive[start] === 0 || next[start]! >= length || pairAt(start) !== rank) continue;
    const absorbed = next[start]!;
    alive[absorbed] = 0;
    next[start] = next[absorbed]!;
    if (next[start]! < length) previous[next[start]!] = start;
    parts--;
    const after = pairAt(start);
    if (after !== Infinity) heap.push(after * 2 ** 32 + start);
    const before = previous[start]!;
    if (before >= 0) {
      const joined = pairAt(before);
      if (joined !== Infinity) heap.push(joined * 2 ** 32 + before);
    }
  }
  return parts;
}

/** A binary min-heap of doubles. */
class PairHeap {
  private items: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.items = new Float64Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.size === this.items.length) {
      const grown = new Float64Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    let at = this.size++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (this.items[parent]! <= value) break;
      this.items[at] = this.items[parent]!;
      at = parent;
    }
    this.items[at] = value;
  }

  pop(): number {
    const top = this.items[0]!;
    const last = this.items[--this.size]!;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.items[child + 1]! < this.items[child]!) child++;
      if (this.items[child]! >= last) break;
      this.items[at] = this.items[child]!;
      at = child;
    }
    this.items[at] = last;
    return top;
  }
}

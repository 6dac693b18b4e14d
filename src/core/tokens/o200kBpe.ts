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
 * it up: a cold decision of a 100k-token conversation spent 3 to 4 ms there on 1,566 new pieces.
 * Here a piece of ASCII is merged on its own characters (an ASCII character is its byte) and any
 * other piece on its UTF-8 bytes held one to a character (a "binary" string), looked up in one
 * map keyed the same way. `o200kCount.test.ts` checks the counts against gpt-tokenizer's.
 */
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';

/** Tokens keyed by their bytes, one character a byte (an ASCII token is its own text); built when first needed. */
let ranks: Map<string, number> | undefined;

function rankTable(): Map<string, number> {
  if (ranks !== undefined) return ranks;
  const table = new Map<string, number>();
  const data = o200kRanks as readonly (string | readonly number[] | undefined)[];
  for (let rank = 0; rank < data.length; rank++) {
    const token = data[rank];
    if (token === undefined) continue;
    const bytes = typeof token === 'string' ? binaryOf(token) : String.fromCharCode(...token);
    table.set(bytes, rank);
    if (bytes.length === 2) pairTable[(bytes.charCodeAt(0) << 8) | bytes.charCodeAt(1)] = rank;
  }
  ranks = table;
  return table;
}

/** The rank of each two-byte token by its bytes (first << 8 | second), -1 where the pair is none: most of the merge's lookups. */
const pairTable = new Int32Array(1 << 16).fill(-1);

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

/** Scratch for the merge: where each part starts, and the rank of each part joined with the next. */
let scratchStarts = new Int32Array(256);
let scratchRanks = new Float64Array(256);
/** The longest piece whose scratch is kept for the next one; a longer one gets arrays of its own. */
const MAX_SCRATCH = 4096;

/** BPE tokens of text[start, end), one o200k pre-token piece. */
export function bpeCount(text: string, start: number, end: number): number {
  if (end - start === 1 && text.charCodeAt(start) < 128) return 1; // every byte is a token of its own
  if (end <= start) return 0;
  const table = rankTable();
  const bytes = isAscii(text, start, end) ? text.slice(start, end) : binaryOf(text.slice(start, end));
  if (bytes.length === 1 || table.has(bytes)) return 1;
  return mergedParts(bytes, table);
}

/** How many parts the merge leaves of `bytes` (two or more bytes, not itself a token). */
function mergedParts(bytes: string, table: Map<string, number>): number {
  const length = bytes.length;
  let starts = scratchStarts;
  let pairRanks = scratchRanks;
  if (starts.length <= length) {
    starts = new Int32Array(2 * length + 2);
    pairRanks = new Float64Array(2 * length + 2);
    if (length <= MAX_SCRATCH) [scratchStarts, scratchRanks] = [starts, pairRanks];
  }
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
  if (end - start === 2) {
    const rank = pairTable[(bytes.charCodeAt(start) << 8) | bytes.charCodeAt(start + 1)]!;
    return rank < 0 ? Infinity : rank;
  }
  return table.get(bytes.slice(start, end)) ?? Infinity;
}

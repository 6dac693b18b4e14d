/**
 * Whether a message's text holds a name (a plain substring test), answered without reading most
 * of the text. Each text is cut into blocks of {@link BLOCK_CHARS}; each block keeps the set of
 * trigrams that start in it or in the {@link OVERLAP} characters after it, hashed into about
 * eight bits a character. A block that lacks one of the name's first trigrams cannot be where
 * the name starts, so only the blocks that may be are read, each just over its own length: a
 * name far into a long output is found without reading everything before it (one set per whole
 * text had the search read up to the first occurrence, ten megabytes for a 100k-token session).
 */
import type { ChatMessage } from '../../chat/types';
import { partText } from '../../chat/types';

/** Texts shorter than this are read directly: faster than building their set. */
const GRAM_MIN_CHARS = 64;
/** Characters a block starts; its set covers trigrams starting up to {@link OVERLAP} past its end. */
const BLOCK_CHARS = 2048;
const OVERLAP = 64;

/** One block of a text: where it starts and ends, and its trigram set. */
interface Block {
  readonly start: number;
  readonly end: number;
  readonly shift: number;
  readonly words: Uint32Array;
}

/** A message's text and, unless it is short, the trigram sets of its blocks. */
export interface IndexedText {
  readonly text: string;
  readonly blocks?: readonly Block[];
}

/** The 32-bit hash of the three characters at `at` (any string: a character the hash folds is still counted). */
function gramAt(text: string, at: number): number {
  return (Math.imul(text.charCodeAt(at), 0x9e3779b1) ^ Math.imul(text.charCodeAt(at + 1), 0x85ebca77) ^ Math.imul(text.charCodeAt(at + 2), 0xc2b2ae3d)) >>> 0;
}

/** The hashes of a name's trigrams, the ones a block must hold for the name to start in it. */
export function nameGrams(name: string): Uint32Array {
  const grams = new Uint32Array(Math.min(Math.max(0, name.length - 2), OVERLAP + 1));
  for (let at = 0; at < grams.length; at++) grams[at] = gramAt(name, at);
  return grams;
}

/**
 * Whether `entry`'s text includes `name` (`grams` from {@link nameGrams}). An occurrence starts
 * in some block; its first trigrams then start before that block's end plus {@link OVERLAP}, so
 * they are in the block's set, and the occurrence lies inside the block's window.
 */
export function includesName(entry: IndexedText, name: string, grams: Uint32Array): boolean {
  const { text, blocks } = entry;
  if (blocks === undefined) return text.includes(name);
  // Indexed loops here and in holdsAll: this runs for every name in every message, and an
  // iterator's result objects were a share of what a cold decision allocated.
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index]!;
    if (!holdsAll(block, grams)) continue;
    const windowEnd = Math.min(text.length, block.end + name.length - 1);
    if (text.slice(block.start, windowEnd).includes(name)) return true;
  }
  return false;
}

function holdsAll(block: Block, grams: Uint32Array): boolean {
  const { words, shift } = block;
  for (let index = 0; index < grams.length; index++) {
    const gram = grams[index]! >>> shift;
    if ((words[gram >>> 5]! & (1 << (gram & 31))) === 0) return false;
  }
  return true;
}

/** Each message's indexed text, kept by the message object: replayed history (the same objects each turn) is indexed once. */
export class NameIndex {
  private readonly entries = new WeakMap<ChatMessage, IndexedText>();

  indexOf(message: ChatMessage): IndexedText {
    let entry = this.entries.get(message);
    if (entry === undefined) {
      const text = message.parts.length === 1 ? partText(message.parts[0]!) : message.parts.map(partText).join('\n');
      entry = text.length < GRAM_MIN_CHARS ? { text } : { text, blocks: blocksOf(text) };
      this.entries.set(message, entry);
    }
    return entry;
  }
}

function blocksOf(text: string): Block[] {
  // One buffer holds every block's set (a view each): a typed array per block was an allocation
  // of its own outside the heap, a hundred and more per long request.
  let total = 0;
  for (let start = 0; start < text.length; start += BLOCK_CHARS) total += (1 << blockBits(text, start)) / 32;
  const buffer = new Uint32Array(total);
  const blocks: Block[] = [];
  let offset = 0;
  for (let start = 0; start < text.length; start += BLOCK_CHARS) {
    const end = Math.min(text.length, start + BLOCK_CHARS);
    const setEnd = Math.min(text.length - 2, end + OVERLAP);
    const bits = blockBits(text, start);
    const size = (1 << bits) / 32;
    const shift = 32 - bits;
    const words = buffer.subarray(offset, offset + size);
    offset += size;
    // gramAt, with the three characters carried from one position to the next (one read each).
    let second = text.charCodeAt(start);
    let third = text.charCodeAt(start + 1);
    for (let at = start; at < setEnd; at++) {
      const first = second;
      second = third;
      third = text.charCodeAt(at + 2);
      const gram = ((Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca77) ^ Math.imul(third, 0xc2b2ae3d)) >>> 0) >>> shift;
      words[gram >>> 5]! |= 1 << (gram & 31);
    }
    blocks.push({ start, end, shift, words });
  }
  return blocks;
}

/** The size, as a power of two, of the set of the block starting at `start`: about eight bits a character, 2^12 to 2^20 bits. */
function blockBits(text: string, start: number): number {
  const end = Math.min(text.length, start + BLOCK_CHARS);
  const setEnd = Math.min(text.length - 2, end + OVERLAP);
  return Math.min(20, Math.max(12, Math.round(Math.log2((setEnd - start + 2) * 8))));
}

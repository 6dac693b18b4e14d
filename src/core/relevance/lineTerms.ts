/**
 * The search terms of one text after another as ids of a TermBatch, for a scorer's call: each
 * distinct word is tokenized and its terms numbered once (a log repeats its words on every
 * line), and the text's BM25 statistics are counted over ids in arrays rather than sets of
 * strings. The ids, in order, are the text's `tokenizeForSearch` terms.
 *
 * A word met again is found by its characters in a table probed with their hash (no string
 * made for it, no map lookup), and every word's ids sit in one shared array: a 2,000-line log
 * has some 30,000 words, and a string, a map lookup and a typed array per word were a third of
 * scoring it.
 */
import type { TermStatistics } from './bm25';
import { forEachSearchWordRange, searchTermsOfWord } from './searchTokenizer';
import type { TermBatch } from './types';

export class LineTerms {
  /** The ids of the text last read, `count` of them. */
  ids: Int32Array = new Int32Array(64);
  count = 0;
  /** The word table: each slot's word (undefined: free), and where its ids start in `pool` and how many. */
  private words: (string | undefined)[] = new Array<string | undefined>(1024).fill(undefined);
  private hashes: Int32Array = new Int32Array(1024);
  private starts: Int32Array = new Int32Array(1024);
  private lengths: Int32Array = new Int32Array(1024);
  private wordCount = 0;
  /** Every word's ids, one after the other. */
  private pool: Int32Array = new Int32Array(4096);
  private pooled = 0;
  /** Each id's position among the query's distinct terms, -1 when it is not one of them. */
  private queryPositions: Int32Array = new Int32Array(256).fill(-1);
  /** The text in which each id was last counted (distinct terms per text). */
  private seen: Int32Array = new Int32Array(256);
  private text = 0;
  private readonly visit = (source: string, start: number, end: number): void => this.addWord(source, start, end);

  constructor(private readonly batch: TermBatch, private readonly queryIndex: ReadonlyMap<string, number>) {}

  /** Reads a text: its term ids into `ids`. */
  read(text: string): void {
    this.count = 0;
    forEachSearchWordRange(text, this.visit);
  }

  /** The BM25 statistics of the text last read (see termStatistics): distinct terms, and each query term's occurrences. */
  statistics(queryTerms: number): TermStatistics {
    const frequencies = new Int32Array(queryTerms);
    const stamp = ++this.text;
    let distinct = 0;
    for (let index = 0; index < this.count; index++) {
      const id = this.ids[index]!;
      if (this.seen[id] !== stamp) {
        this.seen[id] = stamp;
        distinct++;
      }
      const position = this.queryPositions[id]!;
      if (position >= 0) frequencies[position]!++;
    }
    return { length: Math.max(1, distinct), frequencies };
  }

  private addWord(source: string, start: number, end: number): void {
    const length = end - start;
    // FNV-1a over the UTF-16 units.
    let hash = 0x811c9dc5;
    for (let index = start; index < end; index++) hash = Math.imul(hash ^ source.charCodeAt(index), 0x01000193);
    const mask = this.words.length - 1;
    let slot = hash & mask;
    for (;;) {
      const kept = this.words[slot];
      if (kept === undefined) break;
      if (this.hashes[slot] === hash && kept.length === length && source.startsWith(kept, start)) {
        this.append(this.starts[slot]!, this.lengths[slot]!);
        return;
      }
      slot = (slot + 1) & mask;
    }
    const word = start === 0 && end === source.length ? source : source.slice(start, end);
    const terms = searchTermsOfWord(word);
    if (this.pooled + terms.length > this.pool.length) this.pool = grownCopy(this.pool, this.pooled + terms.length);
    const from = this.pooled;
    for (let index = 0; index < terms.length; index++) this.pool[from + index] = this.idOf(terms[index]!);
    this.pooled += terms.length;
    this.words[slot] = word;
    this.hashes[slot] = hash;
    this.starts[slot] = from;
    this.lengths[slot] = terms.length;
    if (++this.wordCount * 2 > this.words.length) this.growTable();
    this.append(from, terms.length);
  }

  /** Appends `length` ids of the pool from `from` to the text's ids. */
  private append(from: number, length: number): void {
    if (this.count + length > this.ids.length) this.ids = grownCopy(this.ids.subarray(0, this.count), this.count + length);
    const { ids, pool } = this;
    let at = this.count;
    for (let index = from; index < from + length; index++) ids[at++] = pool[index]!;
    this.count = at;
  }

  /** The word table at twice its size, every word in its new slot. */
  private growTable(): void {
    const { words, hashes, starts, lengths } = this;
    const size = words.length * 2;
    const mask = size - 1;
    this.words = new Array<string | undefined>(size).fill(undefined);
    this.hashes = new Int32Array(size);
    this.starts = new Int32Array(size);
    this.lengths = new Int32Array(size);
    for (let old = 0; old < words.length; old++) {
      const word = words[old];
      if (word === undefined) continue;
      let slot = hashes[old]! & mask;
      while (this.words[slot] !== undefined) slot = (slot + 1) & mask;
      this.words[slot] = word;
      this.hashes[slot] = hashes[old]!;
      this.starts[slot] = starts[old]!;
      this.lengths[slot] = lengths[old]!;
    }
  }

  private idOf(term: string): number {
    const id = this.batch.idOf(term);
    if (id >= this.queryPositions.length) {
      const size = Math.max(this.queryPositions.length * 2, id + 1);
      const positions = new Int32Array(size).fill(-1);
      positions.set(this.queryPositions);
      this.queryPositions = positions;
      const seen = new Int32Array(size);
      seen.set(this.seen);
      this.seen = seen;
    }
    // A term seen before in another word has its id and position already; writing them again is harmless.
    this.queryPositions[id] = this.queryIndex.get(term) ?? -1;
    return id;
  }
}

/** A copy of `array` in a new array of at least `needed` (doubled) entries. */
function grownCopy(array: Int32Array, needed: number): Int32Array {
  const bigger = new Int32Array(Math.max(array.length * 2, needed));
  bigger.set(array);
  return bigger;
}

/**
 * The search terms of one text after another as ids of a TermBatch, for a scorer's call: each
 * distinct word is tokenized and its terms numbered once (a log repeats its words on every
 * line), and the text's BM25 statistics are counted over ids in arrays rather than sets of
 * strings. The ids, in order, are the text's `tokenizeForSearch` terms.
 */
import type { TermStatistics } from './bm25';
import { forEachSearchWord, searchTermsOfWord } from './searchTokenizer';
import type { TermBatch } from './types';

export class LineTerms {
  /** The ids of the text last read, `count` of them. */
  ids: Int32Array = new Int32Array(64);
  count = 0;
  private readonly wordIds = new Map<string, Int32Array>();
  /** Each id's position among the query's distinct terms, -1 when it is not one of them. */
  private queryPositions: Int32Array = new Int32Array(256).fill(-1);
  /** The text in which each id was last counted (distinct terms per text). */
  private seen: Int32Array = new Int32Array(256);
  private text = 0;
  private readonly visit = (word: string): void => this.addWord(word);

  constructor(private readonly batch: TermBatch, private readonly queryIndex: ReadonlyMap<string, number>) {}

  /** Reads a text: its term ids into `ids`. */
  read(text: string): void {
    this.count = 0;
    forEachSearchWord(text, this.visit);
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

  private addWord(word: string): void {
    let ids = this.wordIds.get(word);
    if (ids === undefined) {
      const terms = searchTermsOfWord(word);
      ids = new Int32Array(terms.length);
      for (let index = 0; index < terms.length; index++) ids[index] = this.idOf(terms[index]!);
      this.wordIds.set(word, ids);
    }
    if (this.count + ids.length > this.ids.length) {
      const bigger = new Int32Array(Math.max(this.ids.length * 2, this.count + ids.length));
      bigger.set(this.ids.subarray(0, this.count));
      this.ids = bigger;
    }
    this.ids.set(ids, this.count);
    this.count += ids.length;
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

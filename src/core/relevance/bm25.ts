/**
 * One-off BM25 over texts that are already tokenized: the scores `LexicalIndex` gives for a
 * collection indexed on the query's terms alone, computed directly. Building a minisearch
 * index for one query over a few thousand log lines cost more than tokenizing them; this is
 * one pass over each text's terms. The arithmetic is minisearch's BM25+ (7.x) step for step
 * (field length = distinct terms, the running mean of field lengths, the per-term sum in
 * query order times the number of query terms matched), so both give the same numbers; a
 * test compares them.
 */

/** BM25+ parameters (see LexicalScorerOptions). */
export interface Bm25Parameters {
  readonly k: number;
  readonly b: number;
  readonly d: number;
}

/** What BM25 needs of one text: its number of distinct terms and how often each query term occurs. */
export interface TermStatistics {
  /** Distinct terms (1 for a text without terms, as minisearch counts an empty field). */
  readonly length: number;
  /** Occurrences of each query term, by the term's position in the query's term list. */
  readonly frequencies: Int32Array;
}

/** The statistics of one tokenized text against a query's distinct terms (term → position). */
export function termStatistics(terms: readonly string[], queryIndex: ReadonlyMap<string, number>): TermStatistics {
  const frequencies = new Int32Array(queryIndex.size);
  const distinct = new Set<string>();
  for (const term of terms) {
    distinct.add(term);
    const position = queryIndex.get(term);
    if (position !== undefined) frequencies[position]!++;
  }
  return { length: Math.max(1, distinct.size), frequencies };
}

/**
 * Scores in [0, 1], one per text, in order: the raw BM25+ score divided by the best any text
 * could reach for this query and collection (see lexicalScorer.ts). `queryTerms` are the
 * query's distinct terms in order of appearance; `texts[i]` is the statistics of text i
 * against them (the same object may stand for repeated texts).
 */
export function bm25Scores(queryTerms: readonly string[], texts: readonly TermStatistics[], bm25: Bm25Parameters): number[] {
  const count = texts.length;
  const scores = new Array<number>(count).fill(0);
  if (count === 0 || queryTerms.length === 0) return scores;
  const documentFrequency = new Int32Array(queryTerms.length);
  // minisearch keeps a running mean as documents are added; the same order of operations gives the same mean.
  let averageLength = 0;
  for (let index = 0; index < count; index++) {
    const text = texts[index]!;
    averageLength = (averageLength * index + text.length) / (index + 1);
    for (let term = 0; term < queryTerms.length; term++) if (text.frequencies[term]! > 0) documentFrequency[term]!++;
  }
  const reachable: number[] = [];
  for (let term = 0; term < queryTerms.length; term++) if (documentFrequency[term]! > 0) reachable.push(term);
  if (reachable.length === 0) return scores;
  const { k, b, d } = bm25;
  let ideal = 0;
  const inverse = new Float64Array(queryTerms.length);
  for (const term of reachable) {
    const frequency = documentFrequency[term]!;
    inverse[term] = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
    ideal += inverse[term]! * (d + k + 1);
  }
  ideal *= reachable.length;
  for (let index = 0; index < count; index++) {
    const text = texts[index]!;
    let score = 0;
    let matched = 0;
    for (const term of reachable) {
      const termFrequency = text.frequencies[term]!;
      if (termFrequency === 0) continue;
      score += inverse[term]! * (d + (termFrequency * (k + 1)) / (termFrequency + k * (1 - b + (b * text.length) / averageLength)));
      matched++;
    }
    if (matched > 0) scores[index] = Math.min(1, (score * matched) / ideal);
  }
  return scores;
}

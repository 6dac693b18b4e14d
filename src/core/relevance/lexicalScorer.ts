/**
 * Lexical relevance: BM25 (minisearch's BM25+ variant) over the code-aware tokenizer.
 *
 * Scores are absolute, not relative to the best document, so a caller can threshold them:
 * a document's raw score is divided by the highest score any document could reach for this
 * query and collection (every query term the collection knows, at saturated term frequency,
 * times minisearch's matched-term multiplier). A document matching nothing scores 0.
 */
import MiniSearch from 'minisearch';
import { bm25Scores, termStatistics, type Bm25Parameters, type TermStatistics } from './bm25';
import { tokenizeForSearch } from './searchTokenizer';
import type { RelevanceScorer } from './types';

/** BM25 parameters; the defaults are minisearch's own. */
export interface LexicalScorerOptions {
  /** Term-frequency saturation. Default 1.2. */
  readonly k?: number;
  /** Length normalization, 0 (none) to 1 (full). Default 0.7. */
  readonly b?: number;
  /** BM25+ lower bound added to every matching term. Default 0.5. */
  readonly d?: number;
}

/** Separates pre-tokenized terms handed to minisearch, so our tokenizer runs exactly once per text. */
const TERM_SEPARATOR = '\u0000';

interface IndexedDocument {
  readonly id: number;
  readonly text: string;
}

export function createLexicalScorer(options: LexicalScorerOptions = {}): RelevanceScorer {
  const bm25 = { k: options.k ?? DEFAULT_BM25.k, b: options.b ?? DEFAULT_BM25.b, d: options.d ?? DEFAULT_BM25.d };
  return {
    mode: 'lexical',
    async score(query: string, documents: readonly string[], signal?: AbortSignal): Promise<number[]> {
      return scoreLexically(query, documents, bm25, signal);
    },
  };
}

/** The synchronous core of the lexical scorer, for callers that rank inline (strategies). */
export function scoreLexically(
  query: string,
  documents: readonly string[],
  bm25: { k: number; b: number; d: number } = DEFAULT_BM25,
  signal?: AbortSignal,
): number[] {
  const queryTerms = [...new Set(tokenizeForSearch(query))];
  if (queryTerms.length === 0 || documents.length === 0) return new Array<number>(documents.length).fill(0);
  // One pass over each text's terms (the scores a one-off LexicalIndex on the query's terms
  // would give, see bm25.ts); a repeated text (log lines repeat) is tokenized once.
  const queryIndex = new Map(queryTerms.map((term, position) => [term, position]));
  const seen = new Map<string, TermStatistics>();
  const statistics: TermStatistics[] = [];
  for (let index = 0; index < documents.length; index++) {
    if (index % 512 === 0) signal?.throwIfAborted();
    const text = documents[index]!;
    let found = seen.get(text);
    if (!found) {
      found = termStatistics(tokenizeForSearch(text), queryIndex);
      seen.set(text, found);
    }
    statistics.push(found);
  }
  return bm25Scores(queryTerms, statistics, bm25);
}

const DEFAULT_BM25 = { k: 1.2, b: 0.7, d: 0.5 };

/** minisearch's BM25+ defaults, which the lexical scorer uses unless told otherwise. */
export const DEFAULT_BM25_PARAMETERS: Readonly<Bm25Parameters> = DEFAULT_BM25;

/**
 * A BM25 index over a fixed list of documents, built once and queried many times (a
 * library, a benchmark corpus). Scores are normalized as in {@link scoreLexically}.
 */
export class LexicalIndex {
  private readonly index: MiniSearch<IndexedDocument>;
  private readonly documentFrequency = new Map<string, number>();
  private readonly count: number;

  /** `onlyTerms` limits the index to those terms (a one-off index for one query). */
  constructor(documents: readonly string[], private readonly bm25: { k: number; b: number; d: number } = DEFAULT_BM25, onlyTerms?: ReadonlySet<string>, signal?: AbortSignal) {
    this.count = documents.length;
    this.index = new MiniSearch<IndexedDocument>({
      fields: ['text'],
      idField: 'id',
      tokenize: (text) => text.split(TERM_SEPARATOR),
      processTerm: onlyTerms ? (term) => (onlyTerms.has(term) ? term : null) : (term) => (term.length > 0 ? term : null),
    });
    const batch: IndexedDocument[] = [];
    for (let id = 0; id < documents.length; id++) {
      if (id % 512 === 0) signal?.throwIfAborted();
      const terms = tokenizeForSearch(documents[id]!);
      for (const term of new Set(terms)) {
        if (onlyTerms && !onlyTerms.has(term)) continue;
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      }
      batch.push({ id, text: terms.join(TERM_SEPARATOR) });
    }
    this.index.addAll(batch);
  }

  /** One score in [0, 1] per document, in order. */
  score(query: string): number[] {
    const scores = new Array<number>(this.count).fill(0);
    const reachable = [...new Set(tokenizeForSearch(query))].filter((term) => this.documentFrequency.has(term));
    if (reachable.length === 0) return scores;
    // The best a document could do: every reachable term, tf → ∞ (term weight (d + k + 1)),
    // times minisearch's multiplier for the number of query terms matched.
    let ideal = 0;
    for (const term of reachable) {
      const frequency = this.documentFrequency.get(term)!;
      ideal += Math.log(1 + (this.count - frequency + 0.5) / (frequency + 0.5)) * (this.bm25.d + this.bm25.k + 1);
    }
    ideal *= reachable.length;
    const results = this.index.search(reachable.join(TERM_SEPARATOR), {
      tokenize: (text) => text.split(TERM_SEPARATOR),
      processTerm: (term) => term,
      combineWith: 'OR',
      bm25: this.bm25,
    });
    for (const result of results) scores[result.id as number] = Math.min(1, result.score / ideal);
    return scores;
  }
}

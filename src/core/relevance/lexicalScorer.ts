/**
 * Lexical relevance: BM25 (minisearch's BM25+ variant) over the code-aware tokenizer.
 *
 * Scores are absolute, not relative to the best document, so a caller can threshold them:
 * a document's raw score is divided by the highest score any document could reach for this
 * query and collection (every query term the collection knows, at saturated term frequency,
 * times minisearch's matched-term multiplier). A document matching nothing scores 0.
 */
import MiniSearch from 'minisearch';
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
  const bm25 = { k: options.k ?? 1.2, b: options.b ?? 0.7, d: options.d ?? 0.5 };
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
  bm25: { k: number; b: number; d: number } = { k: 1.2, b: 0.7, d: 0.5 },
  signal?: AbortSignal,
): number[] {
  const scores = new Array<number>(documents.length).fill(0);
  const queryTerms = [...new Set(tokenizeForSearch(query))];
  if (queryTerms.length === 0 || documents.length === 0) return scores;
  const wanted = new Set(queryTerms);
  const index = new MiniSearch<IndexedDocument>({
    fields: ['text'],
    idField: 'id',
    tokenize: (text) => text.split(TERM_SEPARATOR),
    // Only query terms enter the index (minisearch still counts every term for the field
    // length), which keeps indexing a few thousand log lines cheap enough to do per request.
    processTerm: (term) => (wanted.has(term) ? term : null),
  });
  const documentFrequency = new Map<string, number>();
  const batch: IndexedDocument[] = [];
  for (let id = 0; id < documents.length; id++) {
    if (id % 512 === 0) signal?.throwIfAborted();
    const terms = tokenizeForSearch(documents[id]!);
    const seen = new Set<string>();
    for (const term of terms) {
      if (wanted.has(term) && !seen.has(term)) {
        seen.add(term);
        documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
      }
    }
    batch.push({ id, text: terms.join(TERM_SEPARATOR) });
  }
  index.addAll(batch);
  const reachable = queryTerms.filter((term) => documentFrequency.has(term));
  if (reachable.length === 0) return scores;
  // The best a document could do: every reachable term, tf → ∞ (term weight (d + k + 1)).
  const total = documents.length;
  let ideal = 0;
  for (const term of reachable) {
    const frequency = documentFrequency.get(term)!;
    ideal += Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5)) * (bm25.d + bm25.k + 1);
  }
  ideal *= reachable.length;
  const results = index.search(reachable.join(TERM_SEPARATOR), {
    tokenize: (text) => text.split(TERM_SEPARATOR),
    processTerm: (term) => term,
    combineWith: 'OR',
    bm25,
  });
  for (const result of results) {
    const id = result.id as number;
    scores[id] = Math.min(1, result.score / ideal);
  }
  return scores;
}

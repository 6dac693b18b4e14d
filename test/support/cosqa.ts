/** CoSQA from ../shared/data/retrieval/cosqa: queries, the code corpus, and each query's labelled item. */
import * as fs from 'node:fs';
import { tokenizeForSearch, type LexicalIndex } from '../../src/core/relevance';
import { sharedPath } from './sharedData';

export interface CosqaQuery {
  readonly query: string;
  /** The labelled code snippet (index into `corpus`). */
  readonly answer: number;
}

export interface Cosqa {
  readonly corpus: readonly string[];
  readonly queries: readonly CosqaQuery[];
}

export function loadCosqa(): Cosqa {
  const map = JSON.parse(fs.readFileSync(sharedPath('retrieval', 'cosqa', 'code_idx_map.txt'), 'utf8')) as Record<string, number>;
  const corpus: string[] = [];
  for (const [code, index] of Object.entries(map)) corpus[index] = code;
  const raw = JSON.parse(fs.readFileSync(sharedPath('retrieval', 'cosqa', 'cosqa-retrieval-dev-500.json'), 'utf8')) as { doc: string; retrieval_idx: number }[];
  return { corpus, queries: raw.map((entry) => ({ query: entry.doc, answer: entry.retrieval_idx })) };
}

/** `size` candidates for a query: the labelled one among deterministic distractors, in a deterministic order. */
export function candidatesFor(cosqa: Cosqa, queryIndex: number, size = 20): { id: string; content: string }[] {
  const query = cosqa.queries[queryIndex]!;
  const picked = new Set<number>([query.answer]);
  let state = (queryIndex + 1) * 2654435761;
  while (picked.size < size) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    picked.add(state % cosqa.corpus.length);
  }
  const ids = [...picked].sort((a, b) => ((a * 7919 + queryIndex) % 1009) - ((b * 7919 + queryIndex) % 1009));
  return ids.map((index) => ({ id: `code-${index}`, content: cosqa.corpus[index]! }));
}

/**
 * Hard candidates, as a real retriever hands them to the filter: the labelled function and
 * the `size − 1` others sharing the most distinct search terms with the query (ties: higher
 * BM25, then lower index), in a deterministic order. `index` is a BM25 index over the corpus.
 */
export function hardCandidatesFor(cosqa: Cosqa, queryIndex: number, index: LexicalIndex, size = 20): { id: string; content: string }[] {
  const query = cosqa.queries[queryIndex]!;
  const wanted = new Set(tokenizeForSearch(query.query));
  const bm25 = index.score(query.query);
  const shared = (document: number): number => {
    let count = 0;
    for (const term of new Set(documentTerms(cosqa, document))) if (wanted.has(term)) count++;
    return count;
  };
  const others = cosqa.corpus.map((_, document) => document).filter((document) => document !== query.answer && bm25[document]! > 0);
  const ranked = others.map((document) => ({ document, shared: shared(document), bm25: bm25[document]! })).sort((a, b) => b.shared - a.shared || b.bm25 - a.bm25 || a.document - b.document);
  const picked = [query.answer, ...ranked.slice(0, size - 1).map((entry) => entry.document)];
  const ids = picked.sort((a, b) => ((a * 7919 + queryIndex) % 1009) - ((b * 7919 + queryIndex) % 1009) || a - b);
  return ids.map((document) => ({ id: `code-${document}`, content: cosqa.corpus[document]! }));
}

const TERMS = new WeakMap<Cosqa, string[][]>();

function documentTerms(cosqa: Cosqa, document: number): string[] {
  let terms = TERMS.get(cosqa);
  if (!terms) {
    terms = cosqa.corpus.map((code) => tokenizeForSearch(code));
    TERMS.set(cosqa, terms);
  }
  return terms[document]!;
}

/**
 * The retrieval sets of ../shared/data/retrieval (CoSQA, Cranfield) as judged queries over a
 * corpus, split into a dev half (weights and thresholds are chosen on it) and a held-out test
 * half (reported, never tuned on), and the ranking figures (MRR, nDCG@10) over them.
 */
import * as fs from 'node:fs';
import { fuseScores, LexicalIndex, type Embedder } from '../../src/core/relevance';
import { loadCosqa } from './cosqa';
import { sharedPath } from './sharedData';

/** A query with its judged documents. */
export interface JudgedQuery {
  readonly query: string;
  /** Document index → graded gain (higher is more relevant). */
  readonly gains: ReadonlyMap<number, number>;
}

/** A corpus and its queries. */
export interface RetrievalSet {
  readonly documents: readonly string[];
  readonly queries: readonly JudgedQuery[];
}

/** Which queries: the dev half (even positions), the held-out test half (odd positions), or all. */
export type Split = 'dev' | 'test' | 'all';

/** Queries of one split, by position in the set's own order. */
export function splitQueries<T>(queries: readonly T[], split: Split): T[] {
  if (split === 'all') return [...queries];
  return queries.filter((_, index) => index % 2 === (split === 'dev' ? 0 : 1));
}

export function cosqaSet(split: Split, limit = Infinity): RetrievalSet {
  const cosqa = loadCosqa();
  const queries = splitQueries(cosqa.queries, split).slice(0, limit).map((entry) => ({ query: entry.query, gains: new Map([[entry.answer, 1]]) }));
  return { documents: cosqa.corpus, queries };
}

export function cranfieldSet(split: Split, limit = Infinity): RetrievalSet {
  const parts = (text: string): { id: number; body: string }[] =>
    text.split(/^\.I /m).slice(1).map((chunk) => ({ id: Number(chunk.slice(0, chunk.indexOf('\n'))), body: chunk.slice(chunk.indexOf('\n') + 1).replace(/^\.[TAWB]\s*$/gm, ' ') }));
  const documents = parts(fs.readFileSync(sharedPath('retrieval', 'cranfield', 'cran.all.1400'), 'utf8')).map((document) => document.body);
  // The judgements number queries by their position in cran.qry (1…225), not by their .I label.
  const queryTexts = parts(fs.readFileSync(sharedPath('retrieval', 'cranfield', 'cran.qry'), 'utf8')).map((query) => query.body);
  const gains = new Map<number, Map<number, number>>();
  for (const line of fs.readFileSync(sharedPath('retrieval', 'cranfield', 'cranqrel'), 'utf8').split('\n')) {
    const [query, document, code] = line.trim().split(/\s+/).map(Number);
    if (!query || !document || code === undefined || code < 1) continue;
    // Cleverdon's codes: 1 = complete answer … 4 = minimum interest; gain 4 … 1.
    const judged = gains.get(query) ?? new Map<number, number>();
    judged.set(document - 1, 5 - code);
    gains.set(query, judged);
  }
  const queries = queryTexts.map((query, index) => ({ query, gains: gains.get(index + 1) ?? new Map<number, number>() })).filter((query) => query.gains.size > 0);
  return { documents, queries: splitQueries(queries, split).slice(0, limit) };
}

/** Ranking figures of one scoring over a set. */
export interface Quality {
  readonly mrr: number;
  readonly ndcg10: number;
  readonly msPerQuery: number;
}

/** How a ranking is scored: BM25 alone, the model alone, or the two fused with a weight. */
export type Signals = { readonly kind: 'lexical' } | { readonly kind: 'model'; readonly embedder: Embedder } | { readonly kind: 'fused'; readonly embedder: Embedder; readonly weight: number };

/** Lexical index and document vectors of a set, built once and shared by every scoring. */
export interface PreparedSet {
  readonly set: RetrievalSet;
  readonly index: LexicalIndex;
  vectors?: Float32Array[];
}

export function prepare(set: RetrievalSet): PreparedSet {
  return { set, index: new LexicalIndex(set.documents) };
}

export async function evaluate(prepared: PreparedSet, signals: Signals): Promise<Quality> {
  const { set, index } = prepared;
  if (signals.kind !== 'lexical') prepared.vectors ??= await signals.embedder.embed(set.documents);
  let reciprocal = 0;
  let ndcg = 0;
  const started = performance.now();
  for (const judged of set.queries) {
    let scores: number[];
    if (signals.kind === 'lexical') scores = index.score(judged.query);
    else {
      const queryVector = (await signals.embedder.embed([judged.query]))[0]!;
      const lexical = signals.kind === 'fused' ? index.score(judged.query) : new Array<number>(set.documents.length).fill(0);
      scores = fuseScores(lexical, queryVector, prepared.vectors!, signals.kind === 'fused' ? signals.weight : 1);
    }
    const ranking = scores.map((score, document) => ({ score, document })).sort((a, b) => b.score - a.score || a.document - b.document);
    const firstRelevant = ranking.findIndex((entry) => (judged.gains.get(entry.document) ?? 0) > 0);
    reciprocal += firstRelevant >= 0 ? 1 / (firstRelevant + 1) : 0;
    const dcg = ranking.slice(0, 10).reduce((sum, entry, rank) => sum + (2 ** (judged.gains.get(entry.document) ?? 0) - 1) / Math.log2(rank + 2), 0);
    const ideal = [...judged.gains.values()].sort((a, b) => b - a).slice(0, 10).reduce((sum, gain, rank) => sum + (2 ** gain - 1) / Math.log2(rank + 2), 0);
    ndcg += ideal > 0 ? dcg / ideal : 0;
  }
  const count = Math.max(1, set.queries.length);
  return { mrr: reciprocal / count, ndcg10: ndcg / count, msPerQuery: (performance.now() - started) / count };
}

/**
 * Fusion of lexical and embedding relevance. Lexical scores are first scaled so the best
 * document of this call is 1 (BM25 magnitudes depend on the query length; cosine does not),
 * cosine similarity is clipped at 0, and the two are blended with a fixed weight.
 * Deterministic: the same query, documents, model and weight give the same scores.
 */
import { SHIPPED_MODEL_NAME } from './embedding/bundledModel';
import { bm25Scores, termStatistics, type Bm25Parameters, type TermStatistics } from './bm25';
import { DEFAULT_BM25_PARAMETERS } from './lexicalScorer';
import { LineTerms } from './lineTerms';
import { tokenizeForSearch } from './searchTokenizer';
import { embedsTerms, type Embedder, type RelevanceScorer, type TermBatch, type TermEmbedder } from './types';

/** Share of the embedding similarity in the fused score, when none is given. */
export const DEFAULT_EMBEDDING_WEIGHT = 0.5;

/**
 * Share of the model in fused scores with Herald's shipped retrieval model: the weight with
 * the best mean of CoSQA MRR and Cranfield nDCG@10 on their dev halves (the sweep is in
 * `npm run bench -- relevance`; the test halves are reported, never used to choose it).
 */
export const SHIPPED_MODEL_WEIGHT = 0.7;

/** The fusion weight for an embedder: the chosen one for the shipped model, the default for any other. */
export function fusionWeightFor(embedder: Embedder): number {
  return embedder.name.startsWith(SHIPPED_MODEL_NAME) ? SHIPPED_MODEL_WEIGHT : DEFAULT_EMBEDDING_WEIGHT;
}

export function createFusedScorer(lexical: RelevanceScorer, embedder: Embedder, weight = DEFAULT_EMBEDDING_WEIGHT, bm25: Bm25Parameters = DEFAULT_BM25_PARAMETERS): RelevanceScorer {
  if (!(weight >= 0 && weight <= 1)) throw new Error(`Herald: the embedding weight must be between 0 and 1, got ${weight}`);
  return {
    mode: 'fused',
    async score(query: string, documents: readonly string[], signal?: AbortSignal): Promise<number[]> {
      if (documents.length === 0) return [];
      if (embedsTerms(embedder)) {
        const batch = embedder.termBatch?.();
        return batch ? scoreByTermIds(query, documents, embedder, batch, weight, bm25, signal) : scoreByTerms(query, documents, embedder, weight, bm25, signal);
      }
      const lexicalScores = await lexical.score(query, documents, signal);
      const vectors = await embedder.embed([query, ...documents], signal);
      return fuseScores(lexicalScores, vectors[0]!, vectors.slice(1), weight);
    },
  };
}

/**
 * The fused scores with an embedder that takes search terms: each distinct text is tokenized
 * once, and the same terms give its BM25 statistics and its vector (log lines repeat, and
 * tokenizing was most of the cost). The same scores as BM25 and `embed` computed apart.
 */
function scoreByTerms(query: string, documents: readonly string[], embedder: TermEmbedder, weight: number, bm25: Bm25Parameters, signal?: AbortSignal): number[] {
  const queryTokens = tokenizeForSearch(query);
  const queryTerms = [...new Set(queryTokens)];
  const queryIndex = new Map(queryTerms.map((term, position) => [term, position]));
  const queryVector = embedder.embedTerms(queryTokens, query);
  return fusedOverDistinct(documents, queryTerms, weight, bm25, signal, (text) => {
    const terms = tokenizeForSearch(text);
    return { statistics: termStatistics(terms, queryIndex), similarity: Math.max(0, cosine(queryVector, embedder.embedTerms(terms, text))) };
  });
}

/**
 * The same scores with an embedder that numbers terms (TermBatch): each distinct word of the
 * call is tokenized and its terms numbered once, and a line is then the ids of its words'
 * terms, from which both its BM25 statistics and its vector come with no lookup per term (a
 * log's lines repeat their words, and per-term lookups were most of the cost).
 */
function scoreByTermIds(query: string, documents: readonly string[], embedder: TermEmbedder, batch: TermBatch, weight: number, bm25: Bm25Parameters, signal?: AbortSignal): number[] {
  const queryTokens = tokenizeForSearch(query);
  const queryTerms = [...new Set(queryTokens)];
  const queryIndex = new Map(queryTerms.map((term, position) => [term, position]));
  const queryVector = embedder.embedTerms(queryTokens, query);
  const lines = new LineTerms(batch, queryIndex);
  return fusedOverDistinct(documents, queryTerms, weight, bm25, signal, (text) => {
    lines.read(text);
    let vector = batch.cached(text);
    if (!vector) {
      vector = batch.embedIds(lines.ids, lines.count);
      batch.remember(text, vector);
    }
    return { statistics: lines.statistics(queryTerms.length), similarity: Math.max(0, cosine(queryVector, vector)) };
  });
}

/** What scoring needs of one distinct text: its BM25 statistics and its similarity to the query. */
interface KnownText {
  readonly statistics: TermStatistics;
  readonly similarity: number;
}

/** The fused scores, each distinct text worked out once by `know` (log lines repeat). */
function fusedOverDistinct(documents: readonly string[], queryTerms: readonly string[], weight: number, bm25: Bm25Parameters, signal: AbortSignal | undefined, know: (text: string) => KnownText): number[] {
  const distinct = new Map<string, KnownText>();
  const statistics: TermStatistics[] = [];
  const similarities = new Float64Array(documents.length);
  for (let index = 0; index < documents.length; index++) {
    if (index % 256 === 0) signal?.throwIfAborted();
    const text = documents[index]!;
    let known = distinct.get(text);
    if (!known) {
      known = know(text);
      distinct.set(text, known);
    }
    statistics.push(known.statistics);
    similarities[index] = known.similarity;
  }
  const lexicalScores = bm25Scores(queryTerms, statistics, bm25);
  let best = 0;
  for (const score of lexicalScores) if (score > best) best = score;
  return lexicalScores.map((score, index) => (1 - weight) * (best > 0 ? score / best : 0) + weight * similarities[index]!);
}

/** The fused score of each document: (1 − weight) × lexical / best lexical + weight × max(0, cosine). */
export function fuseScores(lexicalScores: readonly number[], queryVector: Float32Array, documentVectors: readonly Float32Array[], weight: number): number[] {
  let best = 0;
  for (const score of lexicalScores) if (score > best) best = score;
  return lexicalScores.map((score, index) => {
    const lexicalPart = best > 0 ? score / best : 0;
    const similarity = Math.max(0, cosine(queryVector, documentVectors[index]!));
    return (1 - weight) * lexicalPart + weight * similarity;
  });
}

/** Cosine similarity of two vectors (the embedder returns unit vectors, but do not rely on it). */
export function cosine(left: Float32Array, right: Float32Array): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < left.length; index++) {
    const a = left[index]!;
    const b = right[index]!;
    dot += a * b;
    leftNorm += a * a;
    rightNorm += b * b;
  }
  if (leftNorm === 0 || rightNorm === 0) return 0;
  return dot / Math.sqrt(leftNorm * rightNorm);
}

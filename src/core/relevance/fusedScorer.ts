/**
 * Fusion of lexical and embedding relevance. Lexical scores are first scaled so the best
 * document of this call is 1 (BM25 magnitudes depend on the query length; cosine does not),
 * cosine similarity is clipped at 0, and the two are blended with a fixed weight.
 * Deterministic: the same query, documents, model and weight give the same scores.
 */
import { SHIPPED_MODEL_NAME } from './embedding/bundledModel';
import type { Embedder, RelevanceScorer } from './types';

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

export function createFusedScorer(lexical: RelevanceScorer, embedder: Embedder, weight = DEFAULT_EMBEDDING_WEIGHT): RelevanceScorer {
  if (!(weight >= 0 && weight <= 1)) throw new Error(`Herald: the embedding weight must be between 0 and 1, got ${weight}`);
  return {
    mode: 'fused',
    async score(query: string, documents: readonly string[], signal?: AbortSignal): Promise<number[]> {
      if (documents.length === 0) return [];
      const lexicalScores = await lexical.score(query, documents, signal);
      const vectors = await embedder.embed([query, ...documents], signal);
      return fuseScores(lexicalScores, vectors[0]!, vectors.slice(1), weight);
    },
  };
}

/** The fused score of each document: (1 − weight) × lexical / best lexical + weight × max(0, cosine). */
export function fuseScores(lexicalScores: readonly number[], queryVector: Float32Array, documentVectors: readonly Float32Array[], weight: number): number[] {
  const best = Math.max(0, ...lexicalScores);
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

/**
 * The relevance ports shared by the middleware, the filter API and the knowledge library.
 * Implementations live beside this file; consumers depend on these interfaces only.
 */

/** Turns texts into unit-length vectors; implemented over onnxruntime-web with a local model. */
export interface Embedder {
  /** Model name and dimension, for reports and cache keys. */
  readonly name: string;
  readonly dimension: number;
  /** One vector per text, in order. Batched and cached by content hash inside. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** Scores documents against a query; higher is more relevant. Deterministic. */
export interface RelevanceScorer {
  /** `lexical` when no embedding model is configured, `fused` when one is. */
  readonly mode: 'lexical' | 'fused';
  /** One score in [0, 1] per document, in order. */
  score(query: string, documents: readonly string[], signal?: AbortSignal): Promise<number[]>;
}

/**
 * An embedder whose vectors depend on a text's search terms alone (Herald's static model): a
 * scorer that has tokenized the texts for BM25 hands their terms over instead of the texts,
 * so each text is tokenized once.
 */
export interface TermEmbedder extends Embedder {
  /**
   * The unit vector of a text from its search terms (`tokenizeForSearch(text)`): the vector
   * `embed` gives the text. With `text`, the embedder's cache of repeated texts is used.
   */
  embedTerms(terms: readonly string[], text?: string): Float32Array;
}

/** Whether an embedder takes search terms (see {@link TermEmbedder}). */
export function embedsTerms(embedder: Embedder): embedder is TermEmbedder {
  return typeof (embedder as Partial<TermEmbedder>).embedTerms === 'function';
}

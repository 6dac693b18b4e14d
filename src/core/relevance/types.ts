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
  /** A numbering of terms for one scoring call, when the embedder offers one (see {@link TermBatch}). */
  termBatch?(): TermBatch;
}

/**
 * Terms numbered for one scoring call: a scorer that meets the same words on line after line
 * (a log) looks each word up once, keeps its terms' ids, and embeds a text from its ids, with
 * no lookup per term. The vector is the one `embedTerms` gives for the same terms, bit for bit.
 */
export interface TermBatch {
  /** The id of a term in this batch: 0, 1, 2… in the order terms are first asked for. */
  idOf(term: string): number;
  /** The unit vector of a text whose search terms are the terms of `ids[0..count)`, in order. */
  embedIds(ids: Int32Array, count: number): Float32Array;
  /** The vector of a text the embedder has cached, if any (the one `embedTerms` would return for it). */
  cached(text: string): Float32Array | undefined;
  /** Caches a text's vector, as `embedTerms` with a text does. */
  remember(text: string, vector: Float32Array): void;
}

/** Whether an embedder takes search terms (see {@link TermEmbedder}). */
export function embedsTerms(embedder: Embedder): embedder is TermEmbedder {
  return typeof (embedder as Partial<TermEmbedder>).embedTerms === 'function';
}

/**
 * The relevance scorer shared by the middleware (relevance_filter, window_budget), the
 * filter API and the knowledge library. Lexical always; fused with local embeddings when a
 * model folder is configured and loads.
 */
import { createFusedScorer, DEFAULT_EMBEDDING_WEIGHT } from './fusedScorer';
import { createLexicalScorer, DEFAULT_BM25_PARAMETERS, type LexicalScorerOptions } from './lexicalScorer';
import type { Embedder, RelevanceScorer } from './types';

export type { Embedder, RelevanceScorer, TermEmbedder } from './types';
export { embedsTerms } from './types';
export { tokenizeForSearch } from './searchTokenizer';
export { porterStem } from './porterStemmer';
export { createLexicalScorer, LexicalIndex, scoreLexically, type LexicalScorerOptions } from './lexicalScorer';
export { createFusedScorer, cosine, DEFAULT_EMBEDDING_WEIGHT, fuseScores, fusionWeightFor, SHIPPED_MODEL_WEIGHT } from './fusedScorer';
export { loadEmbedder } from './embedding/loadEmbedder';
export { bundledModelFolder, SHIPPED_MODEL_NAME } from './embedding/bundledModel';
export { createStaticEmbedder, readStaticModel } from './embedding/staticModel';
export { loadOnnxEmbedder, ONNX_RUNTIME_WASM_FILE, type OnnxEmbedderOptions } from './embedding/onnxEmbedder';
export { resolveModelFolder, resolveOnnxModelFolder, sha256File, verifyChecksums, MODEL_MANIFEST_FILE, type ModelFolder, type ModelManifest, type StaticModelFolder } from './embedding/modelFolder';

export interface RelevanceScorerOptions {
  /** An embedder over a local model; without one the scorer is lexical. */
  readonly embedder?: Embedder;
  /** Share of the embedding similarity in fused scores, 0 to 1. Default 0.5. */
  readonly embeddingWeight?: number;
  /** BM25 parameters of the lexical part. */
  readonly lexical?: LexicalScorerOptions;
}

/** The scorer to use: fused when an embedder is given, lexical otherwise (its `mode` says which). */
export function createRelevanceScorer(options: RelevanceScorerOptions = {}): RelevanceScorer {
  const lexical = createLexicalScorer(options.lexical);
  if (!options.embedder) return lexical;
  const bm25 = { k: options.lexical?.k ?? DEFAULT_BM25_PARAMETERS.k, b: options.lexical?.b ?? DEFAULT_BM25_PARAMETERS.b, d: options.lexical?.d ?? DEFAULT_BM25_PARAMETERS.d };
  return createFusedScorer(lexical, options.embedder, options.embeddingWeight ?? DEFAULT_EMBEDDING_WEIGHT, bm25);
}

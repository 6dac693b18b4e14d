/**
 * The scorer a strategy uses, chosen once per strategy instance: fused when the host
 * configured an embedding model folder and it loads, lexical otherwise. A model that fails
 * to load is reported once through the logger and the scorer falls back to lexical (fail-open);
 * every decision carries a note saying which mode ranked it and why.
 */
import type { AssetLocator, Logger } from '../ports';
import { createRelevanceScorer } from './index';
import { loadOnnxEmbedder } from './embedding/onnxEmbedder';
import type { RelevanceScorer } from './types';
import { describeError } from '../errors';

export interface ScorerSource {
  /** True when an embedding model folder is configured (it may still fail to load). */
  readonly configured: boolean;
  /** The scorer, and a note for decisions (empty when fused). */
  get(logger: Logger): Promise<{ scorer: RelevanceScorer; note: string }>;
}

/** What the scorer needs from the host (a subset of the strategies' environment). */
export interface ScorerEnvironment {
  /** A local embedding model folder, when the user configured one. */
  readonly embeddingModelDir?: string;
  /** Where the ONNX runtime's files are. */
  readonly assets?: AssetLocator;
  readonly logger?: Logger;
}

/** The note every lexical-only decision carries. */
export const LEXICAL_ONLY_NOTE = '; no embedding model configured, lexical ranking only';

export function loadScorerFor(environment: ScorerEnvironment): ScorerSource {
  const lexical = createRelevanceScorer();
  let loading: Promise<{ scorer: RelevanceScorer; note: string }> | undefined;
  return {
    configured: environment.embeddingModelDir !== undefined && environment.embeddingModelDir.length > 0,
    get(logger: Logger) {
      if (!environment.embeddingModelDir) return Promise.resolve({ scorer: lexical, note: LEXICAL_ONLY_NOTE });
      const modelDir = environment.embeddingModelDir;
      loading ??= loadOnnxEmbedder(modelDir, { assets: environment.assets }).then(
        (embedder) => ({ scorer: createRelevanceScorer({ embedder }), note: '' }),
        (error: unknown) => {
          const message = describeError(error);
          (environment.logger ?? logger).warn('embedding-model-unavailable', message);
          return { scorer: lexical, note: '; the embedding model could not be loaded, lexical ranking only' };
        },
      );
      return loading;
    },
  };
}

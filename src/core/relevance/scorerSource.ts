/**
 * The scorer a strategy uses, chosen once per strategy instance: fused with the user's own
 * embedding model folder when one is configured and loads (it takes precedence), else fused
 * with the retrieval model Herald ships (media/model/herald-retrieval), else lexical. A model
 * that fails to load (missing, damaged: its checksum is checked first) is reported once
 * through the logger and the scorer falls back to the next (fail-open); every decision
 * carries a note saying which signals ranked it: lexical, or lexical and which model fused.
 */
import type { AssetLocator, Logger } from '../ports';
import { createRelevanceScorer } from './index';
import { bundledModelFolder } from './embedding/bundledModel';
import { loadEmbedder } from './embedding/loadEmbedder';
import { fusionWeightFor } from './fusedScorer';
import type { Embedder, RelevanceScorer } from './types';
import { describeError } from '../errors';

export interface ScorerSource {
  /** True when a model (the user's or the shipped one) is there to try (it may still fail to load). */
  readonly configured: boolean;
  /** The scorer, and a note for decisions saying which signals it uses. */
  get(logger: Logger): Promise<{ scorer: RelevanceScorer; note: string }>;
}

/** What the scorer needs from the host (a subset of the strategies' environment). */
export interface ScorerEnvironment {
  /** A local embedding model folder, when the user configured one; it takes precedence over the shipped model. */
  readonly embeddingModelDir?: string;
  /** The shipped model's folder; default: found beside the running code; `false`: lexical unless the user configured a model. */
  readonly bundledModelDir?: string | false;
  /** Where the ONNX runtime's files are. */
  readonly assets?: AssetLocator;
  readonly logger?: Logger;
}

/** The note every lexical-only decision carries. */
export const LEXICAL_ONLY_NOTE = '; signals: lexical only (no embedding model available)';

/** The note of a decision ranked by BM25 fused with a model. */
export function fusedNote(embedder: Embedder, weight: number, shipped: boolean): string {
  return `; signals: lexical + model (${embedder.name}${shipped ? ', shipped with Herald' : ''}; model weight ${weight})`;
}

/** The model folders to try, in order: the user's, then the shipped one. */
export function modelCandidates(environment: ScorerEnvironment): { directory: string; shipped: boolean }[] {
  const candidates: { directory: string; shipped: boolean }[] = [];
  if (environment.embeddingModelDir) candidates.push({ directory: environment.embeddingModelDir, shipped: false });
  const bundled = environment.bundledModelDir === false ? undefined : (environment.bundledModelDir ?? bundledModelFolder());
  if (bundled) candidates.push({ directory: bundled, shipped: true });
  return candidates;
}

/**
 * Loads the first model that works, logging each that does not. Undefined when none does.
 * `failed` collects what went wrong, for the decision's note.
 */
export async function loadFirstEmbedder(environment: ScorerEnvironment, logger: Logger, failed: string[] = []): Promise<{ embedder: Embedder; shipped: boolean } | undefined> {
  for (const candidate of modelCandidates(environment)) {
    try {
      return { embedder: await loadEmbedder(candidate.directory, { assets: environment.assets }), shipped: candidate.shipped };
    } catch (error) {
      const message = describeError(error);
      (environment.logger ?? logger).warn('embedding-model-unavailable', `${message}${candidate.shipped ? '; the shipped retrieval model is not used' : ''}`);
      failed.push(candidate.shipped ? 'the shipped retrieval model' : 'the embedding model');
    }
  }
  return undefined;
}

export function loadScorerFor(environment: ScorerEnvironment): ScorerSource {
  const lexical = createRelevanceScorer();
  let loading: Promise<{ scorer: RelevanceScorer; note: string }> | undefined;
  const configured = modelCandidates(environment).length > 0;
  return {
    configured,
    get(logger: Logger) {
      if (!configured) return Promise.resolve({ scorer: lexical, note: LEXICAL_ONLY_NOTE });
      loading ??= (async () => {
        const failed: string[] = [];
        const loaded = await loadFirstEmbedder(environment, logger, failed);
        const fellBack = failed.length > 0 ? `; ${failed.join(' and ')} could not be loaded` : '';
        if (!loaded) return { scorer: lexical, note: `${fellBack}, lexical ranking only${LEXICAL_ONLY_NOTE}` };
        const weight = fusionWeightFor(loaded.embedder);
        return { scorer: createRelevanceScorer({ embedder: loaded.embedder, embeddingWeight: weight }), note: `${fellBack}${fusedNote(loaded.embedder, weight, loaded.shipped)}` };
      })();
      return loading;
    },
  };
}

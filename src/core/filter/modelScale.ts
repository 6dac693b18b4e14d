/**
 * The filter's 0–3 scale with a retrieval model: the lexical scale (lexicalScale.ts) blended
 * with the model's meaning similarity, mapped onto the same scale. An item that shares no
 * word with the question but says the same thing in other words ("charged twice" for
 * "double-billed") now scores; an item that shares words but is about something else scores
 * lower. Both parts stay absolute (not relative to the other candidates), so a batch of
 * unrelated items still scores low and the aggressiveness thresholds keep their meaning.
 */
import type { Embedder } from '../relevance/types';
import { cosine } from '../relevance/fusedScorer';
import { scoreOnScale, type LexicalScore } from './lexicalScale';

/** How meaning similarity maps onto the 0–3 scale, and how much it counts. */
export interface ModelScale {
  /** Share (0–1) of the meaning part in the score. */
  readonly weight: number;
  /** Cosine at or below which the meaning part is 0. */
  readonly floor: number;
  /** Cosine at or above which the meaning part is 3. */
  readonly ceiling: number;
}

/**
 * The calibration for Herald's shipped retrieval model, chosen on the CoSQA dev half with hard
 * candidates (the labelled function and the 19 sharing the most words with the query): the
 * setting that keeps the labelled item most often at `balanced` with at most 6 of 20 kept.
 * `npm run bench -- filter` prints the held-out test half beside it.
 */
export const SHIPPED_MODEL_SCALE: ModelScale = { weight: 0.6, floor: 0.2, ceiling: 0.7 };

/** Scores on the 0–3 scale from words and meaning. */
export async function scoreWithModel(question: string, documents: readonly string[], embedder: Embedder, scale: ModelScale = SHIPPED_MODEL_SCALE, signal?: AbortSignal): Promise<LexicalScore[]> {
  const lexical = scoreOnScale(question, documents);
  const vectors = await embedder.embed([question, ...documents], signal);
  const questionVector = vectors[0]!;
  return documents.map((_, index) => {
    const similarity = cosine(questionVector, vectors[index + 1]!);
    const meaning = 3 * Math.min(1, Math.max(0, (similarity - scale.floor) / (scale.ceiling - scale.floor)));
    const score = Math.round(((1 - scale.weight) * lexical[index]!.score + scale.weight * meaning) * 100) / 100;
    return { score, reason: `${lexical[index]!.reason}; meaning similarity ${similarity.toFixed(2)} (${embedder.name})` };
  });
}

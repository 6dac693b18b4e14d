/**
 * Which items of a pasted list (retrieved chunks, search results, candidates, files) to keep for
 * a question: the best-scoring ones in their original order, never fewer than a floor, and
 * beyond the floor no item whose score falls far below the best. Pure and deterministic; the caller stashes the rest.
 */

/** How items are chosen. Every field is required; callers keep the defaults in one place. */
export interface ItemSelectionOptions {
  /** Share of the items (0–1) that may be kept by score. */
  readonly keepItemRatio: number;
  /** At least this many items are kept, whatever the ratio. */
  readonly minKeptItems: number;
  /** An item needs at least this share of the best item's score to be kept. */
  readonly itemScoreFloor: number;
}

/** One flag per item: true when kept. With no score above 0 (the question's words are not in the list), every item is kept. */
export function selectItems(scores: readonly number[], options: ItemSelectionOptions): boolean[] {
  const best = Math.max(0, ...scores);
  if (best === 0) return scores.map(() => true);
  const budget = Math.max(options.minKeptItems, Math.ceil(scores.length * options.keepItemRatio));
  const kept = new Array<boolean>(scores.length).fill(false);
  scores
    .map((score, index) => ({ score, index }))
    .filter((entry) => entry.score > 0)
    // Ties go to the earlier item (a retriever lists its best first), so the choice never depends on sort stability.
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .forEach((entry, rank) => {
      if (rank < options.minKeptItems || (rank < budget && entry.score >= best * options.itemScoreFloor)) kept[entry.index] = true;
    });
  return kept;
}

/**
 * Duplicate detection among kept items: an item repeats a kept one when it is mostly copied
 * from it (shared word 3-grams cover most of the smaller one) or reworded (most of the content
 * words are the same), or, with an embedder, when the two mean the same (cosine similarity).
 */
import { tokenizeForSearch } from '../relevance';

export interface DuplicateFingerprint {
  readonly terms: ReadonlySet<string>;
  readonly shingles: ReadonlySet<string>;
  readonly vector?: Float32Array;
}

/** Share of the smaller item's 3-grams found in the other: "partly copied". */
export const COPIED_CONTAINMENT = 0.6;
/** Jaccard similarity of content words: "reworded". */
export const REWORDED_JACCARD = 0.7;
/** Cosine similarity of embeddings: "means the same". */
export const SAME_MEANING_COSINE = 0.93;

export function fingerprint(text: string, vector?: Float32Array): DuplicateFingerprint {
  const tokens = tokenizeForSearch(text);
  const shingles = new Set<string>();
  for (let index = 0; index + 2 < tokens.length; index++) shingles.add(`${tokens[index]} ${tokens[index + 1]} ${tokens[index + 2]}`);
  return { terms: new Set(tokens), shingles, vector };
}

/** Why `candidate` repeats `kept`, or undefined when it does not. */
export function duplicateReason(candidate: DuplicateFingerprint, kept: DuplicateFingerprint): string | undefined {
  if (candidate.terms.size === 0) return undefined;
  const smaller = candidate.shingles.size <= kept.shingles.size ? candidate.shingles : kept.shingles;
  const larger = smaller === candidate.shingles ? kept.shingles : candidate.shingles;
  if (smaller.size >= 3) {
    let shared = 0;
    for (const shingle of smaller) if (larger.has(shingle)) shared++;
    if (shared / smaller.size >= COPIED_CONTAINMENT) return `copies ${Math.round((100 * shared) / smaller.size)}% of its phrasing`;
  }
  let common = 0;
  for (const term of candidate.terms) if (kept.terms.has(term)) common++;
  const jaccard = common / (candidate.terms.size + kept.terms.size - common);
  if (candidate.terms.size >= 4 && jaccard >= REWORDED_JACCARD) return `shares ${Math.round(100 * jaccard)}% of its words (reworded)`;
  if (candidate.vector && kept.vector) {
    let dot = 0;
    for (let index = 0; index < candidate.vector.length; index++) dot += candidate.vector[index]! * (kept.vector[index] ?? 0);
    if (dot >= SAME_MEANING_COSINE) return `means the same (similarity ${dot.toFixed(2)})`;
  }
  return undefined;
}

/**
 * Folders as the library sees them: their phrasings (from their name and their pages'
 * titles and `good_for`) and a coherence score, so only a folder that is about one thing
 * lifts its siblings ("Voice and tone" does, "Battlecards" holding every competitor does not).
 */
import { pageKind } from './names';
import type { Folder, Page } from './types';

/**
 * Folders with their phrasings and coherence. Coherence averages two signals: the mean
 * pairwise cosine of the pages' TF-IDF vectors relative to the library's (from vector sums,
 * in linear time), mapped to 0..1, and the mean overlap of the pages' tags. It is scaled
 * down by the share of pages each about their own named thing (a battlecard per competitor
 * reads alike but is not one topic).
 */
export function buildFolders(pages: readonly Page[]): Folder[] {
  // Terms are numbered in order of first appearance, so sums run over arrays, not maps keyed by word.
  const termIds = new Map<string, number>();
  const documentFrequency: number[] = [];
  const termCounts: { ids: number[]; counts: number[] }[] = [];
  for (const page of pages) {
    const ids: number[] = [];
    const counts: number[] = [];
    for (const [token, count] of Object.entries(page.terms)) {
      let id = termIds.get(token);
      if (id === undefined) {
        id = documentFrequency.length;
        termIds.set(token, id);
        documentFrequency.push(0);
      }
      documentFrequency[id]!++;
      ids.push(id);
      counts.push(count);
    }
    termCounts.push({ ids, counts });
  }
  const byFolder = new Map<string, Page[]>();
  for (const page of pages) {
    const list = byFolder.get(page.folder) ?? [];
    list.push(page);
    byFolder.set(page.folder, list);
  }
  const inverseFrequency = documentFrequency.map((frequency) => Math.log((1 + pages.length) / (1 + frequency)));
  const vectors = new Map(pages.map((page, index) => [page, unitVector(termCounts[index]!, inverseFrequency)]));
  const sums = new VectorSum(documentFrequency.length);
  const librarySimilarity = sums.meanPairwiseCosine(pages.map((page) => vectors.get(page)!));
  const folders: Folder[] = [];
  for (const [path, members] of [...byFolder].sort((a, b) => a[0].localeCompare(b[0]))) {
    const similarity = sums.meanPairwiseCosine(members.map((page) => vectors.get(page)!));
    // Relative to the library as a whole, so the score means the same in a small library and a large one.
    const ratio = librarySimilarity > 0 ? similarity / librarySimilarity : 0;
    // A folder whose pages are each about a different competitor, persona or market (or each
    // a template for a different deliverable) is a
    // catalogue, not a topic: for a task about one of them, the siblings are the wrong pages.
    const namedShare = members.filter((page) => pageKind(page) !== undefined || page.meta.type === 'template').length / members.length;
    const coherence = members.length < 2 ? 0 : ((ratio / (ratio + 1) + meanTagOverlap(members)) / 2) * (1 - namedShare);
    const name = path.split('/').pop() ?? '';
    const goodFor = [name.replace(/[_-]+/g, ' '), ...members.flatMap((page) => [page.meta.title, ...page.meta.good_for])].filter((text) => text.trim().length > 0);
    folders.push({ path, goodFor, coherence, pageIds: members.map((page) => page.id) });
  }
  return folders;
}

/**
 * Mean Jaccard overlap of the pages' tag sets over distinct pairs: the authors' own word on
 * what belongs together. A folder of 5,000 pages has 12.5 million pairs, so pairs sharing no
 * tag (they add nothing) are never visited: each page meets only the later pages holding one
 * of its tags, found through the pages of each tag, in order. The overlaps are added in the
 * same order with the same figures as going through every pair (a page's tags as a set
 * against the other's list as written), so the mean is the same to the last bit.
 */
export function meanTagOverlap(pages: readonly Page[]): number {
  const count = pages.length;
  if (count < 2) return 0;
  const tagIds = new Map<string, number>();
  const pagesWithTag: number[][] = [];
  const written = pages.map((page, index) => page.meta.tags.map((tag) => {
    let id = tagIds.get(tag);
    if (id === undefined) {
      tagIds.set(tag, (id = tagIds.size));
      pagesWithTag.push([]);
    }
    // Once per time the page writes the tag: a tag written twice counts twice, as in its list.
    pagesWithTag[id]!.push(index);
    return id;
  }));
  const shared = new Int32Array(count);
  const next = new Int32Array(pagesWithTag.length);
  let sum = 0;
  for (let left = 0; left < count; left++) {
    const partners: number[] = [];
    for (const id of new Set(written[left])) {
      const holders = pagesWithTag[id]!;
      // Holders are in page order; skip those at or before this page, for good.
      while (next[id]! < holders.length && holders[next[id]!]! <= left) next[id]!++;
      for (let at = next[id]!; at < holders.length; at++) {
        const right = holders[at]!;
        if (shared[right] === 0) partners.push(right);
        shared[right]!++;
      }
    }
    const distinctTags = new Set(written[left]).size;
    for (const right of partners.sort((a, b) => a - b)) {
      const union = distinctTags + written[right]!.length - shared[right]!;
      sum += shared[right]! / union;
      shared[right] = 0;
    }
  }
  return sum / ((count * (count - 1)) / 2);
}

/** A sparse vector: term ids and their weights, in the page's term order. */
interface TermVector {
  readonly ids: readonly number[];
  readonly weights: readonly number[];
}

/** Sums of vectors over term ids, reused from folder to folder. */
class VectorSum {
  private readonly sum: Float64Array;
  private readonly touched: number[] = [];

  constructor(termCount: number) {
    this.sum = new Float64Array(termCount);
  }

  /**
   * Mean cosine over distinct pairs of unit vectors, from their sum: (|Σv|² − n) / (n(n − 1)).
   * The squares are added in order of each term's first appearance, as a map keyed by term
   * would give them, so the figure is the same to the last bit.
   */
  meanPairwiseCosine(vectors: readonly TermVector[]): number {
    const count = vectors.length;
    if (count < 2) return 0;
    const { sum, touched } = this;
    for (const vector of vectors) {
      for (let index = 0; index < vector.ids.length; index++) {
        const id = vector.ids[index]!;
        // Every weight is positive, so a zero sum means a term not seen yet.
        if (sum[id] === 0) touched.push(id);
        sum[id] += vector.weights[index]!;
      }
    }
    let squared = 0;
    for (const id of touched) {
      squared += sum[id]! * sum[id]!;
      sum[id] = 0;
    }
    touched.length = 0;
    return Math.max(0, (squared - count) / (count * (count - 1)));
  }
}

/** `inverseFrequency` holds log((1 + pages) / (1 + pages holding the term)) by term id. */
function unitVector(counts: { readonly ids: readonly number[]; readonly counts: readonly number[] }, inverseFrequency: readonly number[]): TermVector {
  const ids: number[] = [];
  const weights: number[] = [];
  let squared = 0;
  counts.ids.forEach((id, index) => {
    const weight = (1 + Math.log(counts.counts[index]!)) * inverseFrequency[id]!;
    if (weight <= 0) return;
    ids.push(id);
    weights.push(weight);
    squared += weight * weight;
  });
  const length = Math.sqrt(squared) || 1;
  return { ids, weights: weights.map((weight) => weight / length) };
}

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
  const documentFrequency = new Map<string, number>();
  const termCounts = new Map<string, Map<string, number>>();
  for (const page of pages) {
    const counts = new Map(Object.entries(page.terms));
    termCounts.set(page.id, counts);
    for (const token of counts.keys()) documentFrequency.set(token, (documentFrequency.get(token) ?? 0) + 1);
  }
  const byFolder = new Map<string, Page[]>();
  for (const page of pages) {
    const list = byFolder.get(page.folder) ?? [];
    list.push(page);
    byFolder.set(page.folder, list);
  }
  const vectors = new Map(pages.map((page) => [page.id, unitVector(termCounts.get(page.id)!, documentFrequency, pages.length)]));
  const librarySimilarity = meanPairwiseCosine(pages.map((page) => vectors.get(page.id)!));
  const folders: Folder[] = [];
  for (const [path, members] of [...byFolder].sort((a, b) => a[0].localeCompare(b[0]))) {
    const similarity = meanPairwiseCosine(members.map((page) => vectors.get(page.id)!));
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

/** Mean Jaccard overlap of the pages' tag sets over distinct pairs: the authors' own word on what belongs together. */
function meanTagOverlap(pages: readonly Page[]): number {
  let sum = 0;
  let pairs = 0;
  for (let left = 0; left < pages.length; left++) {
    for (let right = left + 1; right < pages.length; right++) {
      const a = new Set(pages[left]!.meta.tags);
      const b = pages[right]!.meta.tags;
      const shared = b.filter((tag) => a.has(tag)).length;
      const union = a.size + b.length - shared;
      sum += union === 0 ? 0 : shared / union;
      pairs++;
    }
  }
  return pairs === 0 ? 0 : sum / pairs;
}

/** Mean cosine over distinct pairs of unit vectors, from their sum: (|Σv|² − n) / (n(n − 1)). */
function meanPairwiseCosine(vectors: readonly ReadonlyMap<string, number>[]): number {
  const count = vectors.length;
  if (count < 2) return 0;
  const sum = new Map<string, number>();
  for (const vector of vectors) for (const [token, weight] of vector) sum.set(token, (sum.get(token) ?? 0) + weight);
  let squared = 0;
  for (const weight of sum.values()) squared += weight * weight;
  return Math.max(0, (squared - count) / (count * (count - 1)));
}

function unitVector(counts: ReadonlyMap<string, number>, documentFrequency: ReadonlyMap<string, number>, pageCount: number): Map<string, number> {
  const vector = new Map<string, number>();
  let squared = 0;
  for (const [token, count] of counts) {
    const weight = (1 + Math.log(count)) * Math.log((1 + pageCount) / (1 + (documentFrequency.get(token) ?? 0)));
    if (weight <= 0) continue;
    vector.set(token, weight);
    squared += weight * weight;
  }
  const length = Math.sqrt(squared) || 1;
  for (const [token, weight] of vector) vector.set(token, weight / length);
  return vector;
}

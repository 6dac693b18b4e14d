/**
 * Step 6: searching sections. The task and each plan search are run; each produces
 * rankings by words (full text, headings weighted more), meaning (when an embedder is
 * given), names (exact phrases), questions, tags and lifted folders; reciprocal rank
 * fusion combines them. Then the search widens one step from the best pages: links both
 * ways, and siblings in folders that are about one thing.
 */
import type { Embedder } from '../relevance/types';
import type { Library } from './library';
import { containsPhrase } from './names';
import type { KnowledgeOptions } from './options';
import { cosine, phraseCoverage } from './phrases';
import type { PlannedName } from './plan';
import { searchTermSet, searchTokens } from './searchTokens';
import type { SearchUnit } from './sectionIndex';
import type { Page } from './types';

/** How a candidate came to be considered. */
export type CandidateReason = 'search' | 'link' | 'folder';

/** A section or row found by search, with the scores that explain it. */
export interface Candidate {
  readonly unit: SearchUnit;
  reason: CandidateReason;
  /** Reciprocal-rank-fused score over every ranking it appears in. */
  fused: number;
  /** 0..1: how close it is to the best match of the query it does best on. */
  closeness: number;
  /** Whether it matches enough of some query's words (or its meaning) to be related at all. */
  related: boolean;
  /** Whether it holds one of the plan's names as an exact phrase. */
  holdsName: boolean;
  /** Rank (from 1) in each ranking it appears in, for the JSON result. */
  readonly ranks: Record<string, number>;
}

/** What the search needs from get_context. */
export interface SearchRequest {
  readonly library: Library;
  /** Whether a unit may be returned: its page is visible and not already sent in full. */
  readonly allowed: (unit: SearchUnit) => boolean;
  /** Visible pages, for questions and tags. */
  readonly visiblePages: readonly Page[];
  /** The task as written, then the plan's searches. */
  readonly queries: readonly string[];
  readonly names: readonly PlannedName[];
  readonly taskTerms: ReadonlySet<string>;
  /** Tags of the visible pages' vocabulary that the task mentions: sections tagged with them rank higher. */
  readonly taskTags: ReadonlySet<string>;
  /** Folders whose phrasings the task matches: their pages are lifted. */
  readonly liftedFolders: ReadonlySet<string>;
  readonly options: KnowledgeOptions;
  readonly embedder?: Embedder;
  readonly signal?: AbortSignal;
}

/** How many hits of one ranking take part in fusion. */
const RANKING_DEPTH = 200;
/** Cosine at or above which a unit counts as related by meaning. */
const MEANING_FLOOR = 0.35;

/** Unit vectors per library and embedder (two models give different vectors for the same unit). */
const embeddingCache = new WeakMap<Library, WeakMap<Embedder, Map<string, Float32Array>>>();

/** Runs every ranking for every query, fuses them, and widens one step. */
export async function searchSections(request: SearchRequest): Promise<Map<string, Candidate>> {
  const { library, options } = request;
  const candidates = new Map<string, Candidate>();
  const touch = (unit: SearchUnit): Candidate => {
    let candidate = candidates.get(unit.id);
    if (!candidate) {
      candidate = { unit, reason: 'search', fused: 0, closeness: 0, related: false, holdsName: false, ranks: {} };
      candidates.set(unit.id, candidate);
    }
    return candidate;
  };
  const addRanking = (name: string, units: readonly SearchUnit[]): void => {
    units.slice(0, RANKING_DEPTH).forEach((unit, index) => {
      const candidate = touch(unit);
      candidate.fused += 1 / (options.fusionConstant + index + 1);
      candidate.ranks[name] = index + 1;
    });
  };
  const allowedId = (id: string): boolean => {
    const unit = library.unit(id);
    return unit !== undefined && request.allowed(unit);
  };

  const taskHits: SearchUnit[] = [];
  for (const [queryIndex, query] of request.queries.entries()) {
    const hits = library.index.query(query, allowedId);
    const terms = new Set(searchTokens(query));
    const best = hits[0]?.score ?? 0;
    const units: SearchUnit[] = [];
    for (const hit of hits) {
      const unit = library.unit(hit.id)!;
      units.push(unit);
      const candidate = touch(unit);
      // A row that matches only through its table's description is no closer than its siblings: half weight.
      const ownMatch = unit.kind === 'section' || hit.matched.some((term) => searchTermSet(unit.text).has(term));
      candidate.closeness = Math.max(candidate.closeness, best > 0 ? (hit.score / best) * (ownMatch ? 1 : 0.5) : 0);
      const matched = hit.matched.length;
      if (matched >= Math.min(2, terms.size) || matched / Math.max(1, terms.size) >= 0.5) candidate.related = true;
    }
    if (queryIndex === 0) taskHits.push(...units);
    addRanking(`words:${queryIndex}`, units);
  }

  if (request.embedder) await meaningRankings(request, touch, addRanking);

  // Names: a section holding one always surfaces, and ranks higher.
  const named: SearchUnit[] = [];
  for (const name of request.names) {
    for (const hit of library.index.query(name.name, allowedId)) {
      const unit = library.unit(hit.id)!;
      if (!containsPhrase(`${unit.heading}\n${unit.text}\n${unit.meta}`, name.name)) continue;
      named.push(unit);
      const candidate = touch(unit);
      candidate.holdsName = true;
      candidate.related = true;
    }
  }
  addRanking('names', dedupe(named));

  addRanking('questions', questionRanking(request, touch));

  const taskTags = request.taskTags;
  const taskRank = new Map(taskHits.map((unit, index) => [unit.id, index]));
  if (taskTags.size > 0) addRanking('tags', taskHits.filter((unit) => library.page(unit.pageId)!.meta.tags.some((tag) => taskTags.has(tag))));
  if (request.liftedFolders.size > 0) {
    const lifted = [...candidates.values()].filter((candidate) => request.liftedFolders.has(library.page(candidate.unit.pageId)!.folder) && candidate.related);
    addRanking('folder', lifted.sort((a, b) => (taskRank.get(a.unit.id) ?? Infinity) - (taskRank.get(b.unit.id) ?? Infinity)).map((candidate) => candidate.unit));
  }

  widen(request, candidates, touch);
  return candidates;
}

function dedupe(units: readonly SearchUnit[]): SearchUnit[] {
  const seen = new Set<string>();
  return units.filter((unit) => !seen.has(unit.id) && seen.add(unit.id));
}

/** Pages whose questions the task reads like: the section that best answers the question comes in as a best match. */
function questionRanking(request: SearchRequest, touch: (unit: SearchUnit) => Candidate): SearchUnit[] {
  const scored: { unit: SearchUnit; coverage: number }[] = [];
  for (const page of request.visiblePages) {
    for (const question of page.meta.questions) {
      const coverage = phraseCoverage(request.taskTerms, question);
      if (coverage < request.options.questionMatch) continue;
      const hit = request.library.index.query(question, (id) => {
        const unit = request.library.unit(id);
        return unit !== undefined && unit.pageId === page.id && request.allowed(unit);
      })[0];
      if (hit) scored.push({ unit: request.library.unit(hit.id)!, coverage });
    }
  }
  scored.sort((a, b) => b.coverage - a.coverage);
  for (const { unit } of scored) {
    const candidate = touch(unit);
    candidate.closeness = 1;
    candidate.related = true;
  }
  return dedupe(scored.map((entry) => entry.unit));
}

/**
 * The tags of the visible pages' vocabulary that the task mentions, as whole words (a tag
 * `deal-desk` matches "deal desk"). Looked up in the task's own word runs rather than
 * searched for one by one: a large library has thousands of tags.
 */
export function findTaskTags(task: string, pages: readonly Page[]): string[] {
  const words = task.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
  const runs = new Set<string>();
  for (let start = 0; start < words.length; start++) {
    for (let length = 1; length <= MAX_TAG_WORDS && start + length <= words.length; length++) runs.add(words.slice(start, start + length).join(' '));
  }
  const found = new Set<string>();
  for (const page of pages) {
    for (const tag of page.meta.tags) if (!found.has(tag) && runs.has(tag.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0).join(' '))) found.add(tag);
  }
  return [...found].sort();
}

/** Tags longer than this many words are never found in a task. */
const MAX_TAG_WORDS = 4;

async function meaningRankings(request: SearchRequest, touch: (unit: SearchUnit) => Candidate, addRanking: (name: string, units: readonly SearchUnit[]) => void): Promise<void> {
  const { library, embedder } = request;
  if (!embedder) return;
  let byEmbedder = embeddingCache.get(library);
  if (!byEmbedder) {
    byEmbedder = new WeakMap();
    embeddingCache.set(library, byEmbedder);
  }
  let cache = byEmbedder.get(embedder);
  if (!cache) {
    cache = new Map();
    byEmbedder.set(embedder, cache);
  }
  const units = library.pages.flatMap((page) => page.sections.flatMap((section) => [section.id, ...section.rows.map((row) => row.id)])).map((id) => library.unit(id)!).filter((unit) => request.allowed(unit));
  const missing = units.filter((unit) => !cache.has(unit.id));
  if (missing.length > 0) {
    const vectors = await embedder.embed(missing.map((unit) => `${unit.heading}\n${unit.meta}\n${unit.text}`), request.signal);
    missing.forEach((unit, index) => cache.set(unit.id, vectors[index]!));
  }
  const queryVectors = await embedder.embed(request.queries, request.signal);
  for (const [queryIndex, vector] of queryVectors.entries()) {
    const scored = units.map((unit) => ({ unit, similarity: cosine(vector, cache.get(unit.id)!) })).sort((a, b) => b.similarity - a.similarity);
    const best = scored[0]?.similarity ?? 0;
    for (const { unit, similarity } of scored.slice(0, RANKING_DEPTH)) {
      if (similarity < MEANING_FLOOR) break;
      const candidate = touch(unit);
      candidate.closeness = Math.max(candidate.closeness, best > 0 ? similarity / best : 0);
      candidate.related = true;
    }
    addRanking(`meaning:${queryIndex}`, scored.filter((entry) => entry.similarity >= MEANING_FLOOR).map((entry) => entry.unit));
  }
}

/** One step out from the best pages: pages linked either way, and siblings in coherent folders. */
function widen(request: SearchRequest, candidates: Map<string, Candidate>, touch: (unit: SearchUnit) => Candidate): void {
  const { library, options } = request;
  const ranked = [...candidates.values()].filter((candidate) => candidate.related).sort(byFused);
  const sources: Candidate[] = [];
  const seenPages = new Set<string>();
  for (const candidate of ranked) {
    if (seenPages.has(candidate.unit.pageId)) continue;
    seenPages.add(candidate.unit.pageId);
    sources.push(candidate);
    if (sources.length >= options.widenFrom) break;
  }
  for (const source of sources) {
    const pageId = source.unit.pageId;
    const linked = [...(library.linksFrom.get(pageId) ?? []), ...(library.linksTo.get(pageId) ?? [])];
    for (const target of linked) reach(target, source, 'link', options.linkWeight);
    const folder = library.folder(library.page(pageId)!.folder);
    if (folder && folder.coherence >= options.folderCoherence) {
      for (const sibling of folder.pageIds) if (sibling !== pageId) reach(sibling, source, 'folder', options.folderWeight);
    }
  }

  function reach(pageId: string, source: Candidate, reason: CandidateReason, weight: number): void {
    const page = library.page(pageId);
    if (!page) return;
    const units = page.sections.map((section) => library.unit(section.id)!).filter((unit) => request.allowed(unit));
    if (units.length === 0) return;
    // The page's own best section when search already found one, else its first.
    const known = units.map((unit) => candidates.get(unit.id)).filter((candidate): candidate is Candidate => candidate !== undefined).sort(byFused)[0];
    // A folder is a weaker tie than a link an author wrote: a sibling must be related to the task on its own.
    if (reason === 'folder' && !known?.related) return;
    const candidate = known ?? touch(units[0]!);
    const inherited = source.closeness * weight;
    if (candidate.related && candidate.closeness >= inherited) return;
    candidate.reason = reason;
    candidate.closeness = Math.max(candidate.closeness, inherited);
    candidate.fused = Math.max(candidate.fused, source.fused * weight);
    candidate.related = true;
  }
}

export function byFused(a: Candidate, b: Candidate): number {
  return b.fused - a.fused || a.unit.id.localeCompare(b.unit.id);
}

/** Folders whose phrasings the task covers well enough to lift their pages. */
export function matchFolders(library: Library, taskTerms: ReadonlySet<string>, threshold: number): Set<string> {
  const lifted = new Set<string>();
  for (const folder of library.folders) {
    if (folder.path === '') continue;
    if (folder.goodFor.some((phrase) => phraseCoverage(taskTerms, phrase) >= threshold)) lifted.add(folder.path);
  }
  return lifted;
}

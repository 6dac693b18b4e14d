/**
 * Library checks: when a page changes, compare it with its nearest neighbours and flag any
 * fact, number or rule it states differently (a conflict) and any ground another page
 * already covers (an overlap), with the wording from both pages. Heuristics without a model;
 * the model when one is given (the heuristics stand in if it fails).
 */
import { z } from 'zod';
import { silentLogger, type Logger, type ModelPort } from '../ports';
import type { Library } from './library';
import { extractJson, withTimeout } from './plan';
import { searchTermSet, searchTokens } from './searchTokens';
import type { Page } from './types';
import { describeError } from '../errors';

/** One thing an owner should look at, with both wordings. */
export interface LibraryFlag {
  /** conflict: the pages state a fact, number or rule differently; overlap: they cover the same ground. */
  readonly kind: 'conflict' | 'overlap';
  readonly pageId: string;
  readonly otherPageId: string;
  /** The changed page's wording. */
  readonly wording: string;
  /** The other page's wording. */
  readonly otherWording: string;
  /** What differs, in a sentence. */
  readonly detail: string;
  readonly source: 'heuristic' | 'model';
}

/** Options of {@link checkLibrary}. */
export interface CheckLibraryOptions {
  /** Ids of the pages that changed; every published page when absent. */
  readonly changed?: readonly string[];
  /** Reads each changed page next to its neighbours when given. */
  readonly model?: ModelPort;
  /** How many nearest neighbours each page is compared with. Default 3. */
  readonly neighbours?: number;
  /** Milliseconds the model may take per page. Default 15,000. */
  readonly timeoutMs?: number;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
}

/** Sentences this alike (share of content words) are about the same thing. */
const SAME_SUBJECT = 0.6;
/** Sentences with fewer content words than this are too short to compare. */
const MIN_TERMS = 4;
/** A sentence holding this share of the other's content words says the same thing: an overlap. */
const SAME_WORDING = 0.8;
const NEGATION = /\b(never|not|no|don't|do not|cannot|can't|won't|isn't|aren't|without)\b/i;
const NUMBER = /\d+(?:[.,]\d+)*\s*%?/g;

/** Flags for the changed pages (or all published pages), each pair of pages flagged once per wording. */
export async function checkLibrary(library: Library, options: CheckLibraryOptions = {}): Promise<LibraryFlag[]> {
  const logger = options.logger ?? silentLogger;
  const published = library.pages.filter((page) => page.meta.status === 'published' && !page.meta.private);
  const changed = options.changed ? published.filter((page) => options.changed!.includes(page.id)) : published;
  const flags: LibraryFlag[] = [];
  const seen = new Set<string>();
  for (const page of changed) {
    const neighbours = nearestNeighbours(library, page, published, options.neighbours ?? 3);
    let pageFlags: LibraryFlag[] | undefined;
    if (options.model) {
      try {
        pageFlags = await modelFlags(page, neighbours, options.model, options.timeoutMs ?? 15_000, options.signal);
      } catch (error) {
        logger.warn('library-check-model-failed', `Herald: the library check model failed for ${page.id} (${describeError(error)}); using heuristics`);
      }
    }
    pageFlags ??= neighbours.flatMap((neighbour) => heuristicFlags(page, neighbour));
    for (const flag of pageFlags) {
      // A pair checked from both sides is flagged once.
      const key = [flag.kind, ...[`${flag.pageId}\u0000${flag.wording}`, `${flag.otherPageId}\u0000${flag.otherWording}`].sort()].join('\u0001');
      if (seen.has(key)) continue;
      seen.add(key);
      flags.push(flag);
    }
  }
  return flags;
}

/** The pages whose sections best match this page's distinctive words. */
export function nearestNeighbours(library: Library, page: Page, candidates: readonly Page[], count: number): Page[] {
  const allowed = new Set(candidates.map((candidate) => candidate.id));
  allowed.delete(page.id);
  const frequency = new Map<string, number>();
  for (const term of searchTokens(page.body)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const query = [...frequency].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 40).map(([term]) => term).join(' ');
  const scores = new Map<string, number>();
  for (const hit of library.index.query(query, (id) => allowed.has(library.unit(id)?.pageId ?? ''))) {
    const pageId = library.unit(hit.id)!.pageId;
    scores.set(pageId, (scores.get(pageId) ?? 0) + hit.score);
  }
  return [...scores].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, count).map(([id]) => library.page(id)!);
}

/** Sentences of a page (table rows count as sentences), without Markdown decoration. */
export function statements(page: Page): string[] {
  const sentences: string[] = [];
  for (const section of page.sections) {
    for (const row of section.rows) sentences.push(row.text);
    const prose = section.text.split('\n').filter((line) => !/^\s*(#|\|)/.test(line)).join(' ');
    for (const sentence of splitStatements(prose)) {
      const clean = sentence.replace(/[*_`>]+/g, '').replace(/^\s*[-*\d.]+\s+/, '').replace(/\s+/g, ' ').trim();
      // A question states nothing that could contradict a fact.
      if (clean.length > 0 && !clean.endsWith('?')) sentences.push(clean);
    }
  }
  return sentences;
}

const SENTENCE_END = new Set(['.', '!', '?', ';']);
const LINE_TERMINATOR = new Set(['\n', '\r', '\u2028', '\u2029']);

/**
 * Prose cut into statements where `prose.split(/(?<=[.!?;])\s+|\s+-\s+|^\s*[-*]\s+/m)` cuts
 * it, piece for piece, in one pass: that pattern scans a run of whitespace to its end from
 * every position in it, quadratic on a long run (and `split` is synchronous, so no time limit
 * interrupts it). Here each run's end is found once.
 */
export function splitStatements(prose: string): string[] {
  // runEnd[at]: where the whitespace run holding position `at` ends; -1 off whitespace.
  const runEnd = new Int32Array(prose.length + 1).fill(-1);
  for (const run of prose.matchAll(/\s+/g)) {
    const end = run.index + run[0].length;
    for (let at = run.index; at < end; at++) runEnd[at] = end;
  }
  /** Where a cut starting at `at` ends, trying the pattern's three alternatives in its order; -1 for none. */
  const cutEnd = (at: number): number => {
    const run = runEnd[at]!;
    const mark = run < 0 ? at : run;
    const afterMark = runEnd[mark + 1] ?? -1;
    const bullet = prose[mark] === '-' || prose[mark] === '*';
    if (run >= 0 && at > 0 && SENTENCE_END.has(prose[at - 1]!)) return run;
    if (run >= 0 && prose[mark] === '-' && afterMark >= 0) return afterMark;
    if ((at === 0 || LINE_TERMINATOR.has(prose[at - 1]!)) && bullet && afterMark >= 0) return afterMark;
    return -1;
  };
  const pieces: string[] = [];
  let pieceStart = 0;
  for (let at = 0; at < prose.length; at++) {
    const end = cutEnd(at);
    if (end < 0) continue;
    pieces.push(prose.slice(pieceStart, at));
    pieceStart = end;
    at = end - 1;
  }
  pieces.push(prose.slice(pieceStart));
  return pieces;
}

function contentTerms(sentence: string): Set<string> {
  return searchTermSet(sentence.replace(NUMBER, ' '));
}

function numbers(sentence: string): string[] {
  return [...sentence.matchAll(NUMBER)].map((match) => match[0].replace(/\s+/g, '').replace(/,/g, '')).sort();
}

/** Jaccard similarity and containment (shared over the smaller set) of two term sets. */
function overlap(left: ReadonlySet<string>, right: ReadonlySet<string>): { jaccard: number; containment: number } {
  let shared = 0;
  for (const term of left) if (right.has(term)) shared++;
  const union = left.size + right.size - shared;
  const smaller = Math.min(left.size, right.size);
  return { jaccard: union === 0 ? 0 : shared / union, containment: smaller === 0 ? 0 : shared / smaller };
}

/** Numbers conflict when each side states one the other does not; a sentence adding a number to another's is not a contradiction. */
function numbersConflict(mine: readonly string[], theirs: readonly string[]): boolean {
  if (mine.length === 0 || theirs.length === 0) return false;
  return mine.some((number) => !theirs.includes(number)) && theirs.some((number) => !mine.includes(number));
}

/** Sentence pairs about the same subject that differ in a number or in negation, or that say the same thing. */
export function heuristicFlags(page: Page, other: Page): LibraryFlag[] {
  const flags: LibraryFlag[] = [];
  const otherStatements = statements(other).map((sentence) => ({ sentence, terms: contentTerms(sentence) })).filter((entry) => entry.terms.size >= MIN_TERMS);
  for (const sentence of statements(page)) {
    const terms = contentTerms(sentence);
    if (terms.size < MIN_TERMS) continue;
    for (const candidate of otherStatements) {
      const similarity = overlap(terms, candidate.terms);
      if (similarity.jaccard < SAME_SUBJECT) continue;
      const mine = numbers(sentence);
      const theirs = numbers(candidate.sentence);
      const base = { pageId: page.id, otherPageId: other.id, wording: sentence, otherWording: candidate.sentence, source: 'heuristic' as const };
      if (numbersConflict(mine, theirs)) {
        flags.push({ ...base, kind: 'conflict', detail: `states ${mine.join(', ')} where "${other.meta.title}" states ${theirs.join(', ')}` });
      } else if (NEGATION.test(sentence) !== NEGATION.test(candidate.sentence)) {
        flags.push({ ...base, kind: 'conflict', detail: `states the rule the other way round from "${other.meta.title}"` });
      } else if (similarity.containment >= SAME_WORDING) {
        flags.push({ ...base, kind: 'overlap', detail: `says what "${other.meta.title}" already says` });
      }
    }
  }
  return flags;
}

const modelAnswerSchema = z.object({
  flags: z.array(z.object({ kind: z.enum(['conflict', 'overlap']), other_page_id: z.string(), wording: z.string().min(1), other_wording: z.string().min(1), detail: z.string().default('') })),
});

async function modelFlags(page: Page, neighbours: readonly Page[], model: ModelPort, timeoutMs: number, signal?: AbortSignal): Promise<LibraryFlag[]> {
  if (neighbours.length === 0) return [];
  const prompt = [
    `Changed page (page_id ${page.id}, "${page.meta.title}"):`, page.body.trim(), '',
    ...neighbours.flatMap((neighbour) => [`Neighbour (page_id ${neighbour.id}, "${neighbour.meta.title}"):`, neighbour.body.trim(), '']),
    'List every fact, number or rule the changed page states differently from a neighbour (kind "conflict"), and any ground it covers that a neighbour already covers (kind "overlap").',
    'Quote the wording from both pages exactly. Answer {"flags": [{"kind": "conflict", "other_page_id": "...", "wording": "...", "other_wording": "...", "detail": "..."}]}; an empty list when there is nothing.',
  ].join('\n');
  const answer = await withTimeout((inner) => model.complete({ system: 'You keep a company knowledge library consistent. Answer with one JSON object and nothing else.', prompt, maxTokens: 800, signal: inner }), timeoutMs, signal);
  const parsed = modelAnswerSchema.parse(JSON.parse(extractJson(answer)));
  const known = new Set(neighbours.map((neighbour) => neighbour.id));
  return parsed.flags
    .filter((flag) => known.has(flag.other_page_id))
    .map((flag) => ({ kind: flag.kind, pageId: page.id, otherPageId: flag.other_page_id, wording: flag.wording, otherWording: flag.other_wording, detail: flag.detail, source: 'model' as const }));
}

/**
 * Comparing a task with short phrasings of work ("writing a cold email to a finance buyer"):
 * how much of a phrasing the task covers, by words, and by meaning when an embedder is given.
 */
import type { Embedder } from '../relevance/types';
import { searchTermSet } from './searchTokens';

/** The share of a phrasing's words the task holds; 0 when fewer than two match a longer phrasing. */
export function phraseCoverage(taskTerms: ReadonlySet<string>, phrase: string): number {
  const terms = phraseTerms(phrase);
  if (terms.size === 0) return 0;
  let matched = 0;
  for (const term of terms) if (taskTerms.has(term)) matched++;
  // One shared word between a long phrasing and a task is a coincidence, not a match.
  if (terms.size >= 2 && matched < 2) return 0;
  return matched / terms.size;
}

/** Phrasings are compared on every request; their terms are worked out once. */
const PHRASE_TERMS = new Map<string, ReadonlySet<string>>();
const PHRASE_TERMS_LIMIT = 100_000;

function phraseTerms(phrase: string): ReadonlySet<string> {
  let terms = PHRASE_TERMS.get(phrase);
  if (!terms) {
    terms = searchTermSet(phrase);
    if (PHRASE_TERMS.size >= PHRASE_TERMS_LIMIT) PHRASE_TERMS.clear();
    PHRASE_TERMS.set(phrase, terms);
  }
  return terms;
}

/** Cosine of two unit vectors. */
export function cosine(left: Float32Array, right: Float32Array): number {
  let sum = 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) sum += left[index]! * right[index]!;
  return sum;
}

/** Phrasing vectors per embedder: a library's phrasings are embedded once. */
const PHRASE_VECTORS = new WeakMap<Embedder, Map<string, Float32Array>>();

/** Cosine of the task with each phrasing, by meaning. */
export async function phraseMeanings(embedder: Embedder, task: string, phrases: readonly string[], signal?: AbortSignal): Promise<Map<string, number>> {
  let cache = PHRASE_VECTORS.get(embedder);
  if (!cache) {
    cache = new Map();
    PHRASE_VECTORS.set(embedder, cache);
  }
  const missing = [...new Set(phrases)].filter((phrase) => !cache.has(phrase));
  const vectors = await embedder.embed([task, ...missing], signal);
  missing.forEach((phrase, index) => cache.set(phrase, vectors[index + 1]!));
  const taskVector = vectors[0]!;
  return new Map(phrases.map((phrase) => [phrase, cosine(taskVector, cache.get(phrase)!)]));
}

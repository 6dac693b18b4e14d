/**
 * Cleaned content remembered per text. A cleaner's result is a function of the text, the
 * format and, for JSON, test runs and grep hits, the question. One request cleans the same
 * output more than once: command_digest cleans a log to digest it, and when that digest is not
 * taken context_compression cleans the same log again. And a run whose rewrites of cached
 * history are decided again as one batch (`pipeline.ts`, the batch rule) runs every strategy a
 * second time over the same request. On a 5 MB conversation of logs that was half of the whole
 * decision. Bounded by the bytes it holds (texts and results), least recently used first.
 */
import { BoundedMemo } from '../boundedMemo';
import type { CleanOptions, CleanResult, ContentFormat } from './types';

/** What the memo may hold, about bytes: a 5 MB conversation's outputs and their digests fit. */
const MAX_BYTES = 32 * 1024 * 1024;

/** The formats whose cleaner reads the question (see `cleanAs` in index.ts). */
const ASKS: ReadonlySet<ContentFormat> = new Set(['json', 'test-output', 'grep']);

/** Per text, each way it was cleaned (format and question) and the result. */
const MEMO = new BoundedMemo<Map<string, CleanResult>>(MAX_BYTES, weighResults);
/** How many cleanings were worked out (not served from memory) since the memo was last emptied. */
let computed = 0;

function weighResults(results: Map<string, CleanResult>): number {
  let bytes = 0;
  for (const [way, result] of results) {
    bytes += way.length * 2 + (result.changed ? result.text.length * 2 : 0) + 64;
    for (const line of result.removed) bytes += line.length * 2;
  }
  return bytes;
}

/**
 * The result of cleaning `text` as `format` with `options`, worked out by `clean` the first time
 * and remembered. Prose is not remembered: it comes back as it came at no cost, and most tool
 * outputs are prose, which would push out the logs and data worth keeping. Nor is a JSON cleaning
 * that ranks rows with a scorer: the scorer is a function, not part of a key. Each caller gets
 * its own `removed` list.
 */
export function cleanedOnce(text: string, format: ContentFormat, options: CleanOptions, clean: () => CleanResult): CleanResult {
  if (format === 'text' || (format === 'json' && options.rankRows !== undefined)) return clean();
  const way = ASKS.has(format) ? `${format}\u0000${options.question ?? ''}` : format;
  const results = MEMO.get(text);
  const known = results?.get(way);
  if (known !== undefined) return { ...known, removed: [...known.removed] };
  const result = clean();
  computed++;
  const kept = results ?? new Map<string, CleanResult>();
  kept.set(way, { ...result, removed: [...result.removed] });
  // Set again, so the memo weighs the entry with its new result.
  MEMO.set(text, kept);
  return result;
}

/** What the memo holds and has done since it was last emptied: texts, cleanings worked out. */
export function cleaningsRemembered(): { readonly texts: number; readonly computed: number } {
  return { texts: MEMO.size, computed };
}

/** Forgets every remembered cleaning (tests, and benches that time the cleaners themselves). */
export function forgetCleanings(): void {
  MEMO.clear();
  computed = 0;
}

/**
 * Terms a reader would quote back from a tool output: identifiers, paths and numbers. Used
 * to tell whether later messages build on an output (they mention something it introduced).
 */

import { BoundedMemo } from '../../boundedMemo';
import { checkDeadline } from '../../pipeline/deadline';

/** Identifiers and paths (letters, digits, `_ . / -`, at least one letter), and numbers of three digits or more. */
const TERM = /[A-Za-z_][\w./-]*[\w]|\d{3,}/g;
/** Words too common in any output or answer to show that one builds on the other. */
const COMMON = new Set([
  'the', 'and', 'for', 'that', 'this', 'with', 'from', 'not', 'are', 'was', 'but', 'have', 'has', 'you', 'your', 'will', 'can', 'all',
  'def', 'class', 'return', 'import', 'self', 'none', 'true', 'false', 'null', 'if', 'else', 'elif', 'then', 'file', 'line', 'lines',
  'error', 'output', 'test', 'tests', 'value', 'values', 'name', 'type', 'data', 'list', 'print', 'function', 'should', 'would', 'which',
]);

/**
 * Recently seen texts' terms: every request repeats the whole conversation, so most texts come
 * back. Bounded by what it holds (the texts and their terms), not by a text's length: the long
 * outputs are the ones that cost most to scan again.
 */
const MEMO = new BoundedMemo<ReadonlySet<string>>(64 * 1024 * 1024, weighTerms);

/** Every term of a text, lower-cased (memoized; do not mutate the result). */
export function termsIn(text: string): ReadonlySet<string> {
  return MEMO.getOrCompute(text, collectTerms);
}

/** Every term of a text, as {@link termsIn} finds them, without remembering them (a line of an output, looked at once). */
export function termsOfLine(text: string): ReadonlySet<string> {
  return MEMO.get(text) ?? collectTerms(text);
}

function weighTerms(terms: ReadonlySet<string>): number {
  let weight = 0;
  for (const term of terms) weight += term.length * 2 + 48;
  return weight;
}

/** Matches read between two looks at the running strategy's deadline (a multi-megabyte output is one text). */
const MATCHES_PER_CHECK = 4_096;

function collectTerms(text: string): Set<string> {
  const terms = new Set<string>();
  let matches = 0;
  for (const match of text.matchAll(TERM)) {
    if (++matches % MATCHES_PER_CHECK === 0) checkDeadline();
    const term = normalize(match[0]);
    if ((term.length >= 4 || /^\d+$/.test(term)) && !COMMON.has(term)) terms.add(term);
  }
  return terms;
}

const TRAILING_PUNCTUATION = new Set(['.', '/', '-']);

/** Lower case, trailing `.`, `/` and `-` dropped (a loop from the end: /[./-]+$/ is quadratic on a long run of them). */
function normalize(term: string): string {
  let end = term.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(term[end - 1]!)) end--;
  return term.slice(0, end).toLowerCase();
}

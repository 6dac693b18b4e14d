/** Turns one Markdown file into a {@link Page}, or the problems that stop it loading. */
import { sha256 } from '../pipeline/hash';
import { parseFrontMatter, READ_WHOLE_TYPES } from './frontMatter';
import { pageCountedLazily } from './lazyTokens';
import { findLinks, splitSections } from './markdown';
import type { LibraryProblem, Page } from './types';

/** Parses a page file. `relativePath` uses forward slashes and ends in `.md`. */
export function parsePage(relativePath: string, source: string): { page: Page } | { problems: LibraryProblem[] } {
  const front = parseFrontMatter(source);
  if (!front.ok) return { problems: front.problems.map((problem) => ({ code: 'front-matter-invalid', file: relativePath, line: problem.line, message: problem.message })) };
  const { meta, body } = front;
  const id = meta.id ?? relativePath.replace(/\.md$/i, '').toLowerCase().replace(/[^a-z0-9/_-]+/g, '-');
  const slash = relativePath.lastIndexOf('/');
  const folder = slash < 0 ? '' : relativePath.slice(0, slash);
  const sections = splitSections(id, meta.title, body);
  return {
    // Token counts are counted when first read: a build reads none of them.
    page: pageCountedLazily({
      id,
      path: relativePath,
      folder,
      meta,
      body,
      terms: topTerms(`${meta.title}\n${body}`),
      sections,
      links: findLinks(body),
      hash: sha256(source),
      readWhole: meta.read_whole ?? READ_WHOLE_TYPES.has(meta.type),
    }),
  };
}

/** Words too common to say what a page is about. */
const COMMON_WORDS: ReadonlySet<string> = new Set('the and for are but not you all any can had her was one our out has have his how its may new now see two way who did get let say she too use with that this from they will would there their what about which when make like than then them these some into only other also more most such very just your been were said each much many over well should could'.split(' '));

/** How many of a page's terms are kept for coherence: enough to tell topics apart, small enough to save. */
const KEPT_TERMS = 60;

/**
 * A plain lower-cased word split rather than the search tokenizer: coherence only compares
 * pages roughly, and this runs over every page body on every rebuild.
 */
function topTerms(text: string): Record<string, number> {
  const counts = new Map<string, number>();
  for (const term of letterRuns(text.toLowerCase())) {
    if (term.length < 3 || COMMON_WORDS.has(term)) continue;
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  // Without a prototype, V8 keeps the record as a hash table from the start; a plain object of
  // 60 words unlike any other page's would get a new hidden class per word (half a second
  // over 5,000 pages). It reads, enumerates and serializes the same.
  const kept: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const [term, count] of [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, KEPT_TERMS)) kept[term] = count;
  return kept;
}

const ASCII_SEPARATORS = /[^a-z0-9\u0080-\uffff]+/;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The runs of letters and digits of a lower-cased text, as `split(/[^\p{L}\p{N}]+/u)` gives
 * them (give or take empty strings, which count for nothing). The Unicode pattern is slow
 * over a whole library; a plain one splits at ASCII punctuation and spaces first, and only
 * pieces holding other characters are split by the Unicode pattern.
 */
export function letterRuns(lower: string): string[] {
  const pieces = lower.split(ASCII_SEPARATORS);
  if (!NON_ASCII.test(lower)) return pieces;
  const found: string[] = [];
  for (const piece of pieces) {
    if (NON_ASCII.test(piece)) for (const part of piece.split(SEPARATORS)) found.push(part);
    else found.push(piece);
  }
  return found;
}

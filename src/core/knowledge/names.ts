/**
 * The names a library knows: competitors, products, personas and markets, read from the
 * pages about them (a battlecard's title, a persona's title, front matter `names`). The
 * rule-based plan finds them in a task, search matches them as exact phrases, and focus
 * drops pages about a different one of the same kind.
 */
import type { Page } from './types';

/** What a name is. */
export type NameKind = 'competitor' | 'product' | 'persona' | 'market';

/** A name and the page that is about it. */
export interface KnownName {
  readonly name: string;
  readonly kind: NameKind;
  readonly pageId: string;
}

/** Page types and folder words that say what a page is about. */
const KIND_BY_TYPE: Readonly<Record<string, NameKind>> = { battlecard: 'competitor', competitor: 'competitor', product: 'product', persona: 'persona', market: 'market', segment: 'market' };
const KIND_BY_FOLDER: Readonly<Record<string, NameKind>> = { battlecards: 'competitor', competitors: 'competitor', products: 'product', personas: 'persona', markets: 'market', segments: 'market' };

/** Words in a title that name the page's type rather than its subject. */
const TYPE_WORDS = /\b(battle ?cards?|personas?|competitors?|products?|markets?|segments?|profiles?|vs\.?|versus|overview)\b/gi;

/** The kind of thing a page is about, if it is about one named thing. */
export function pageKind(page: Page): NameKind | undefined {
  return KIND_BY_TYPE[page.meta.type] ?? KIND_BY_FOLDER[page.folder.split('/').pop()?.toLowerCase() ?? ''];
}

/** The names of the pages that are about one named thing. */
export function collectNames(pages: readonly Page[]): KnownName[] {
  const names: KnownName[] = [];
  for (const page of pages) {
    const kind = pageKind(page);
    // A draft's title ("Draft: …") names nothing agents may rely on.
    if (!kind || page.meta.status !== 'published') continue;
    const seen = new Set<string>();
    for (const name of [titleName(page.meta.title), ...page.meta.names]) {
      const key = name.toLowerCase();
      if (name.length < 2 || seen.has(key)) continue;
      seen.add(key);
      names.push({ name, kind, pageId: page.id });
    }
  }
  return names;
}

/** "Battlecard: TaxJar" → "TaxJar"; "Dana, the CFO (persona)" → "Dana". */
export function titleName(title: string): string {
  const withoutType = withoutParentheses(title).replace(TYPE_WORDS, ' ');
  const head = withoutType.split(/[:,—–|]| - /).map((part) => part.trim()).filter((part) => part.length > 0);
  return (head[0] ?? title).replace(/\s+/g, ' ').trim();
}

/**
 * Every "(…)" replaced by a space, as `replace(/\([^)]*\)/g, ' ')` would, in one pass: the
 * pattern rescans to the end from every "(" that has no ")" after it, quadratic on a long run.
 */
function withoutParentheses(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = text.indexOf('(', at);
    const close = open < 0 ? -1 : text.indexOf(')', open + 1);
    // No ")" after this "(" means none after any later "(" either.
    if (close < 0) return out + text.slice(at);
    out += `${text.slice(at, open)} `;
    at = close + 1;
  }
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * Whether `name` occurs in `text` as a whole phrase, case-insensitively, with any run of
 * whitespace matching any other. A plain search, not a regular expression per name: a
 * library has thousands of names and tags, and compiling a Unicode pattern for each costs
 * far more than the search itself.
 */
export function containsPhrase(text: string, name: string): boolean {
  const needle = name.toLowerCase().replace(/\s+/g, ' ').trim();
  if (needle.length === 0) return false;
  const haystack = text.toLowerCase().replace(/\s+/g, ' ');
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = at === 0 ? '' : haystack[at - 1]!;
    const after = haystack[at + needle.length] ?? '';
    if (!WORD_CHARACTER.test(before) && !WORD_CHARACTER.test(after)) return true;
  }
  return false;
}

/**
 * Token counts worked out when first read. A cold build of a large library would otherwise
 * run the BPE tokenizer over every section, while get_context reads the counts of the few
 * dozen sections it considers.
 */
import { countTokens } from '../tokens';
import type { Page, Section } from './types';

/**
 * Makes `target.tokens` an own, enumerable property whose value is `count()`, worked out on
 * first read and then kept as a plain value: the object still reads, spreads, compares and
 * serializes like plain data. Returns `target`.
 */
export function countTokensLazily<T extends { readonly tokens: number }>(target: T, count: () => number): T {
  Object.defineProperty(target, 'tokens', {
    enumerable: true,
    configurable: true,
    get(): number {
      const tokens = count();
      Object.defineProperty(target, 'tokens', { value: tokens, enumerable: true, configurable: false, writable: false });
      return tokens;
    },
  });
  return target;
}

/** A section whose `tokens` (of its text) are counted when first read. */
export function sectionCountedLazily(section: Omit<Section, 'tokens'>): Section {
  const { id, pageId, index, headingPath, text, rows } = section;
  // `tokens: 0` keeps the key in its place among the others until the getter replaces it.
  return countTokensLazily({ id, pageId, index, headingPath, text, tokens: 0, rows }, () => countTokens(text));
}

/** A page whose `tokens` are counted when first read, summed from its sections: the body is counted once, in pieces. */
export function pageCountedLazily(page: Omit<Page, 'tokens'>): Page {
  const { id, path, folder, meta, body, terms, sections, links, hash, readWhole } = page;
  return countTokensLazily({ id, path, folder, meta, body, tokens: 0, terms, sections, links, hash, readWhole }, () => sections.reduce((sum, section) => sum + section.tokens, 0));
}

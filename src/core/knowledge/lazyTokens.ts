/**
 * Token counts worked out when first read. A cold build of a large library would otherwise
 * run the BPE tokenizer over every section, while get_context reads the counts of the few
 * dozen sections it considers.
 */
import { countTokens } from '../tokens';
import type { Page, Section } from './types';

/**
 * `tokens` as an own, enumerable property worked out on first read from the object itself
 * (one getter shared by every object, nothing allocated per object) and then kept as a plain
 * value: the object still reads, spreads, compares and serializes like plain data.
 */
function lazyTokens<T extends object>(count: (target: T) => number): PropertyDescriptor {
  return {
    enumerable: true,
    configurable: true,
    get(this: T): number {
      const tokens = count(this);
      // Reflect: on an object frozen since, the count is simply worked out again next time.
      Reflect.defineProperty(this, 'tokens', { value: tokens, enumerable: true, configurable: false, writable: false });
      return tokens;
    },
  };
}

const SECTION_TOKENS = lazyTokens<Section>((section) => countTokens(section.text));
// Summed from the sections rather than counted again: the body is counted once, in pieces.
const PAGE_TOKENS = lazyTokens<Page>((page) => page.sections.reduce((sum, section) => sum + section.tokens, 0));

/** A section whose `tokens` (of its text) are counted when first read. */
export function sectionCountedLazily(section: Omit<Section, 'tokens'>): Section {
  const { id, pageId, index, headingPath, text, rows } = section;
  // `tokens: 0` keeps the key in its place among the others until the getter replaces it.
  return Object.defineProperty({ id, pageId, index, headingPath, text, tokens: 0, rows }, 'tokens', SECTION_TOKENS);
}

/** A page whose `tokens` are counted when first read, from its sections. */
export function pageCountedLazily(page: Omit<Page, 'tokens'>): Page {
  const { id, path, folder, meta, body, terms, sections, links, hash, readWhole } = page;
  return Object.defineProperty({ id, path, folder, meta, body, tokens: 0, terms, sections, links, hash, readWhole }, 'tokens', PAGE_TOKENS);
}

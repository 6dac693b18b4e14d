/**
 * The full-text index over every section and table row (minisearch). Heading words and
 * a section's folder, type and tags are separate fields weighted above body text, so a
 * specific heading or folder name lifts the section under it.
 */
import MiniSearch from 'minisearch';
import { searchTokens } from './searchTokens';
import type { Page } from './types';

/** What search ranks: a section, or one row of a table seen with the table's description. */
export interface SearchUnit {
  /** A section id, or a row id. */
  readonly id: string;
  readonly kind: 'section' | 'row';
  readonly pageId: string;
  readonly sectionId: string;
  /** Heading path (and for rows the table's description). */
  readonly heading: string;
  /** The searched text. */
  readonly text: string;
  /** Title, folder, type and tags of the page. */
  readonly meta: string;
}

/** Search field weights: words in headings and page facts count for more than body words. */
export const FIELD_BOOSTS: Readonly<Record<'heading' | 'text' | 'meta', number>> = { heading: 2, text: 1, meta: 1.5 };

const OPTIONS = {
  idField: 'id',
  fields: ['heading', 'text', 'meta'],
  storeFields: [] as string[],
  tokenize: (text: string): string[] => searchTokens(text),
  processTerm: (term: string): string => term,
};

/** The search units of one page. */
export function pageUnits(page: Page): SearchUnit[] {
  const meta = [page.meta.title, page.folder.replace(/[/_-]+/g, ' '), page.meta.type, ...page.meta.tags].join(' ');
  const units: SearchUnit[] = [];
  for (const section of page.sections) {
    units.push({ id: section.id, kind: 'section', pageId: page.id, sectionId: section.id, heading: section.headingPath.join(' › '), text: section.text, meta });
    for (const row of section.rows) units.push({ id: row.id, kind: 'row', pageId: page.id, sectionId: section.id, heading: row.description, text: row.text, meta });
  }
  return units;
}

/** A full-text hit: a unit id and its BM25 score. */
export interface WordHit {
  readonly id: string;
  readonly score: number;
  /** Query terms the unit contains. */
  readonly matched: readonly string[];
}

export class SectionIndex {
  private constructor(private readonly search: MiniSearch<SearchUnit>) {}

  static empty(): SectionIndex {
    return new SectionIndex(new MiniSearch<SearchUnit>(OPTIONS));
  }

  /** Restores an index saved with {@link toJSON}. */
  static fromJSON(json: string): SectionIndex {
    return new SectionIndex(MiniSearch.loadJSON<SearchUnit>(json, OPTIONS));
  }

  get size(): number {
    return this.search.documentCount;
  }

  add(units: readonly SearchUnit[]): void {
    this.search.addAll(units);
  }

  /** Removes units by id (lazily: minisearch vacuums in the background). */
  discard(ids: readonly string[]): void {
    for (const id of ids) if (this.search.has(id)) this.search.discard(id);
  }

  has(id: string): boolean {
    return this.search.has(id);
  }

  /** Units matching any of the query's words, best first. `allowed` narrows to some units. */
  query(text: string, allowed?: (id: string) => boolean): WordHit[] {
    if (searchTokens(text).length === 0) return [];
    const results = this.search.search(text, {
      boost: FIELD_BOOSTS,
      combineWith: 'OR',
      prefix: false,
      fuzzy: false,
      filter: allowed ? (result) => allowed(result.id as string) : undefined,
    });
    return results.map((result) => ({ id: result.id as string, score: result.score, matched: result.terms }));
  }

  toJSON(): string {
    return JSON.stringify(this.search);
  }
}

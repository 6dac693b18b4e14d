/**
 * The full-text index over every section and table row (minisearch). Heading words and
 * a section's folder, type and tags are separate fields weighted above body text, so a
 * specific heading or folder name lifts the section under it.
 */
import MiniSearch from 'minisearch';
import { indexData, type IndexData, type IndexShape } from './indexBuild';
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

const FIELDS = ['heading', 'text', 'meta'] as const;

const OPTIONS = {
  idField: 'id',
  fields: [...FIELDS],
  storeFields: [] as string[],
  tokenize: (text: string): string[] => searchTokens(text),
  processTerm: (term: string): string => term,
};

/** How {@link indexData} builds the same index: every unit of a page carries the page's facts, and every row its table's description. */
const SHAPE: IndexShape<SearchUnit> = { idField: 'id', fields: FIELDS, tokenize: OPTIONS.tokenize, repeatedFields: new Set(['heading', 'meta']) };

/** Units already made, per page: the index build and the library's unit lookup both ask for every page's. */
const UNITS = new WeakMap<Page, readonly SearchUnit[]>();

/** The search units of one page. */
export function pageUnits(page: Page): readonly SearchUnit[] {
  let units = UNITS.get(page);
  if (!units) UNITS.set(page, (units = makeUnits(page)));
  return units;
}

function makeUnits(page: Page): SearchUnit[] {
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

  /** An index of `units`, exactly as {@link add} would make it from an empty one, built in one pass. */
  static of(units: readonly SearchUnit[]): SectionIndex {
    return SectionIndex.fromData(SectionIndex.dataOf(units));
  }

  /** The data of {@link of}'s index, to load with {@link fromData} (and to save as it is). */
  static dataOf(units: readonly SearchUnit[]): IndexData {
    return indexData(units, SHAPE);
  }

  /** Restores an index saved with {@link toData}. */
  static fromData(data: IndexData): SectionIndex {
    return new SectionIndex(MiniSearch.loadJS<SearchUnit>(data, OPTIONS));
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

  /** The index as plain data, to save as JSON and restore with {@link fromData}. */
  toData(): IndexData {
    return this.search.toJSON();
  }
}

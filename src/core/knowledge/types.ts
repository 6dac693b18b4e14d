/**
 * The knowledge library's data model: pages split into sections and table rows, packs,
 * folders, and the problems found while loading. Everything here is plain data, so a
 * library can be cached, compared and shown in the sidebar without the loader.
 */
import type { FrontMatter } from './frontMatter';

/** A section of a page: the text under one heading (or before the first heading). */
export interface Section {
  /** `<page id>#<index>`, stable while the page's headings do not move. */
  readonly id: string;
  readonly pageId: string;
  /** Position among the page's sections, from 0. */
  readonly index: number;
  /** Headings from the page title down to this section's own heading. */
  readonly headingPath: readonly string[];
  /** The section's Markdown, its own heading line included. */
  readonly text: string;
  /** Tokens of `text` (o200k), counted when first read (a build reads none). */
  readonly tokens: number;
  /** Rows of the tables in this section. */
  readonly rows: readonly TableRow[];
}

/** One row of a Markdown table, seen with the table's description so it reads on its own. */
export interface TableRow {
  /** `<section id>/r<row index>`. */
  readonly id: string;
  readonly sectionId: string;
  /** The heading path and the sentence before the table: what the table is a table of. */
  readonly description: string;
  /** The table's header line and separator, to render the row as a one-row table. */
  readonly header: string;
  /** The row's own Markdown line. */
  readonly line: string;
  /** `column: value` pairs, for search and for the judge. */
  readonly text: string;
}

/** A Markdown page with validated front matter. */
export interface Page {
  /** `page_id`: the front matter's `id`, or the path inside the library without `.md`. */
  readonly id: string;
  /** Path inside the library, with forward slashes. */
  readonly path: string;
  /** Folder inside the library ('' for the root), with forward slashes. */
  readonly folder: string;
  readonly meta: FrontMatter;
  /** The page's Markdown without its front matter. */
  readonly body: string;
  /** Tokens of the page's sections together (o200k), close to the body's own count; counted when first read. */
  readonly tokens: number;
  /** The page's most frequent search terms with their counts: what folder coherence compares. */
  readonly terms: Readonly<Record<string, number>>;
  readonly sections: readonly Section[];
  /** Titles (or ids) of the pages this page links to with `[[Page title]]`, as written. */
  readonly links: readonly string[];
  /** Content hash of the file, for incremental indexing and judge memory. */
  readonly hash: string;
  /** Whether the page is read whole: `read_whole` when set, otherwise decided by type. */
  readonly readWhole: boolean;
}

/** A pack: a named set of pages for one kind of work. */
export interface Pack {
  readonly name: string;
  readonly description: string;
  /** Phrasings of the work the pack is for. */
  readonly goodFor: readonly string[];
  /** Page ids added in full when the pack applies. */
  readonly always: readonly string[];
  /** Page ids whose sections are kept when related at all. */
  readonly whenRelevant: readonly string[];
  /** Path of the pack's file inside the library. */
  readonly path: string;
}

/** A folder of pages, with what it is for and how much it is about one thing. */
export interface Folder {
  /** Path inside the library, forward slashes, '' for the root. */
  readonly path: string;
  /** Phrasings drawn from the folder's name and its pages' titles and `good_for`. */
  readonly goodFor: readonly string[];
  /** 0..1: how alike its pages are; a folder above the threshold lifts its siblings. */
  readonly coherence: number;
  readonly pageIds: readonly string[];
}

/** A problem found while loading: one page or pack that did not load, the rest still did. */
export interface LibraryProblem {
  /** Machine-readable, e.g. `front-matter-invalid`. */
  readonly code: string;
  /** Path inside the library. */
  readonly file: string;
  /** 1-based line of the problem when known. */
  readonly line?: number;
  readonly message: string;
}

/** Library-wide settings from `library.yaml` at the root. */
export interface LibrarySettings {
  /** Shown in "Instructions from the <organization> team". */
  readonly organization?: string;
  /** The team's instructions to agents, put at the top of every bundle. */
  readonly instructions?: string;
}

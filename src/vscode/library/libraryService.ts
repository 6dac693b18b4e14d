/**
 * The workspace's knowledge library as the sidebar, the participant and the tools see it:
 * loaded with the core's `loadLibrary`, reloaded on demand, searched with its section index.
 * Pure (no `vscode`): the extension passes the folder and a logger.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadLibrary, type Library } from '../../core/knowledge/library';
import type { Page } from '../../core/knowledge/types';
import type { Logger } from '../../core/ports';
import type { LibraryView, PageView } from '../../webview/protocol';

const ACTIVITY_LIMIT = 30;
const NEAREST_LIMIT = 5;
const RESULT_LIMIT = 20;

export class LibraryService {
  private library: Library | undefined;
  private problem: string | undefined;
  private readonly activity: { time: number; text: string }[] = [];
  private lastSearch: LibraryView['search'];
  private readonly listeners = new Set<() => void>();

  /**
   * @param workspaceRoot the first workspace folder, or undefined without a workspace
   * @param folder the library folder, relative to the workspace (the `herald.library.folder` setting)
   */
  constructor(private workspaceRoot: string | undefined, private folder: string, private readonly logger: Logger, private readonly now: () => number = Date.now) {}

  /** The library folder's absolute path, when there is a workspace. */
  root(): string | undefined {
    return this.workspaceRoot ? path.resolve(this.workspaceRoot, this.folder) : undefined;
  }

  configure(workspaceRoot: string | undefined, folder: string): void {
    if (workspaceRoot === this.workspaceRoot && folder === this.folder) return;
    this.workspaceRoot = workspaceRoot;
    this.folder = folder;
    this.reload('library folder changed');
  }

  /** Loads (or reloads) the library; problems are recorded, never thrown. */
  reload(why = 'reindexed'): Library | undefined {
    const root = this.root();
    this.library = undefined;
    this.problem = undefined;
    if (!root) {
      this.problem = 'Open a folder to use a knowledge library.';
    } else if (!fs.existsSync(root)) {
      this.problem = `No library yet: "${this.folder}" does not exist in this workspace. Run "Herald: New Library Page" to start one.`;
    } else {
      try {
        this.library = loadLibrary(root, { logger: this.logger });
        const problems = this.library.problems.length;
        this.note(`${why}: ${this.library.pages.length} pages${problems > 0 ? `, ${problems} with problems` : ''}`);
      } catch (error) {
        this.problem = error instanceof Error ? error.message : String(error);
        this.logger.warn('library-load-failed', this.problem);
      }
    }
    this.changed();
    return this.library;
  }

  /** The loaded library, loading it on first use. */
  current(): Library | undefined {
    return this.library ?? (this.problem === undefined ? this.reload('loaded') : undefined);
  }

  /** Records something that happened to the library (a get_context call, a page read). */
  note(text: string): void {
    this.activity.unshift({ time: this.now(), text });
    this.activity.length = Math.min(this.activity.length, ACTIVITY_LIMIT);
    this.changed();
  }

  /** Pages whose sections match the query; with none, the pages nearest to it by title and tags. */
  search(query: string): NonNullable<LibraryView['search']> {
    const library = this.current();
    const trimmed = query.trim();
    if (!library || trimmed.length === 0) {
      this.lastSearch = trimmed.length === 0 ? undefined : { query: trimmed, results: [], nearest: [] };
      this.changed();
      return this.lastSearch ?? { query: '', results: [], nearest: [] };
    }
    const scores = new Map<string, number>();
    for (const hit of library.index.query(trimmed)) {
      const pageId = library.unit(hit.id)?.pageId;
      if (pageId) scores.set(pageId, Math.max(scores.get(pageId) ?? 0, hit.score));
    }
    const results = [...scores].sort((a, b) => b[1] - a[1]).slice(0, RESULT_LIMIT).flatMap(([id]) => {
      const page = library.page(id);
      return page ? [pageView(page)] : [];
    });
    const nearest = results.length > 0 ? [] : nearestPages(library.pages, trimmed).map((page) => pageView(page));
    this.lastSearch = { query: trimmed, results, nearest };
    this.note(`searched "${trimmed.slice(0, 60)}": ${results.length} pages`);
    return this.lastSearch;
  }

  view(): LibraryView {
    const library = this.current();
    return {
      folder: this.folder,
      available: library !== undefined,
      message: this.problem ?? (library && library.problems.length > 0 ? library.problems.map((problem) => `${problem.file}: ${problem.message}`).slice(0, 5).join('\n') : undefined),
      pages: library ? [...library.pages].sort((a, b) => a.folder.localeCompare(b.folder) || a.meta.title.localeCompare(b.meta.title)).map((page) => pageView(page)) : [],
      activity: [...this.activity],
      search: this.lastSearch,
    };
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** What the sidebar shows of a page; flags say what a reader should know at a glance. */
export function pageView(page: Page, today = new Date().toISOString().slice(0, 10)): PageView {
  const flags: string[] = [];
  if (page.meta.pinned) flags.push('pinned');
  if (page.readWhole) flags.push('read whole');
  if (page.meta.private) flags.push('private');
  if (page.meta.expires !== undefined && page.meta.expires < today) flags.push('expired');
  return {
    id: page.id,
    title: page.meta.title,
    path: page.path,
    folder: page.folder,
    type: page.meta.type,
    status: page.meta.status,
    flags,
    tags: [...page.meta.tags],
  };
}

/** Pages sharing the most words (or word beginnings) with the query in their title, tags and phrasings. */
export function nearestPages(pages: readonly Page[], query: string, limit = NEAREST_LIMIT): Page[] {
  const words = query.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length >= 3);
  if (words.length === 0) return pages.slice(0, limit);
  const scored = pages.map((page) => {
    const facts = [page.meta.title, page.folder, page.meta.type, ...page.meta.tags, ...page.meta.good_for, ...page.meta.questions].join(' ').toLowerCase();
    const factWords = facts.split(/[^a-z0-9]+/).filter((word) => word.length > 0);
    let score = 0;
    for (const word of words) {
      if (factWords.includes(word)) score += 2;
      else if (factWords.some((fact) => fact.startsWith(word.slice(0, 4)) || word.startsWith(fact.slice(0, 4)))) score += 1;
    }
    return { page, score };
  });
  return scored.sort((a, b) => b.score - a.score || a.page.meta.title.localeCompare(b.page.meta.title)).slice(0, limit).map((entry) => entry.page);
}

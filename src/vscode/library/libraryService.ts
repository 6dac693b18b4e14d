/**
 * The workspace's knowledge library as the sidebar, the participant and the tools see it:
 * loaded with the core's `loadLibrary`, reloaded on demand, searched with its section index.
 * Pure (no `vscode`): the extension passes the folder and a logger.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkLibrary, type LibraryFlag } from '../../core/knowledge/checks';
import { loadLibrary, type Library } from '../../core/knowledge/library';
import type { Page } from '../../core/knowledge/types';
import type { Logger, ModelPort } from '../../core/ports';
import type { LibraryView, PageView } from '../../webview/protocol';
import { describeError } from '../../core/errors';

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
  /** Conflict and overlap flags of the last check of each page, by page id. */
  private readonly checkFlags = new Map<string, LibraryFlag[]>();

  /**
   * @param workspaceRoot the first workspace folder, or undefined without a workspace
   * @param folder the library folder, relative to the workspace (the `herald.library.folder` setting)
   * @param indexFileFor where the parsed pages and search index of a library root are saved, so a reload parses only changed files; none: rebuilt every time
   */
  constructor(
    private workspaceRoot: string | undefined,
    private folder: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    private readonly indexFileFor?: (root: string) => string,
  ) {}

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
        this.library = loadLibrary(root, { logger: this.logger, ...(this.indexFileFor ? { indexFile: this.indexFileFor(root) } : {}) });
        const problems = this.library.problems.length;
        this.note(`${why}: ${this.library.pages.length} pages${problems > 0 ? `, ${problems} with problems` : ''}`);
      } catch (error) {
        this.problem = describeError(error);
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

  /**
   * After a page was saved: reloads (incrementally with an index file) and checks the saved page
   * against its nearest neighbours, with the model when one is given, else by heuristics. The
   * flags show on the page in the Library view until the next check of that page.
   */
  async checkSaved(file: string, model?: ModelPort, signal?: AbortSignal): Promise<LibraryFlag[]> {
    const root = this.root();
    if (!root || !isInside(root, file) || !file.endsWith('.md')) return [];
    const library = this.reload('page saved');
    const relative = path.relative(root, file).split(path.sep).join('/');
    const page = library?.pages.find((candidate) => candidate.path === relative || path.resolve(root, candidate.path) === file);
    if (!library || !page) return [];
    const flags = await checkLibrary(library, { changed: [page.id], model, logger: this.logger, signal });
    this.checkFlags.set(page.id, flags);
    this.note(flags.length === 0 ? `checked ${page.meta.title}: no conflicts or overlaps` : `checked ${page.meta.title}: ${flags.map((flag) => `${flag.kind} with ${library.page(flag.otherPageId)?.meta.title ?? flag.otherPageId}`).join('; ')}`);
    return flags;
  }

  /** Records a get_context answer in the activity, with "nothing found" and the nearest pages when it found nothing. */
  recordContext(source: string, task: string, result: { readonly pages: readonly unknown[]; readonly tokens: number; readonly nothingFound: boolean; readonly nearest: readonly { readonly title: string }[] }): void {
    const what = `${source} "${task.slice(0, 60)}"`;
    if (result.nothingFound) this.note(`${what}: nothing found${result.nearest.length > 0 ? `; nearest: ${result.nearest.map((page) => page.title).join(', ')}` : ''}`);
    else this.note(`${what}: ${result.pages.length} pages, ${result.tokens} tokens`);
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
      pages: library ? [...library.pages].sort((a, b) => a.folder.localeCompare(b.folder) || a.meta.title.localeCompare(b.meta.title)).map((page) => this.withCheckFlags(library, pageView(page))) : [],
      activity: [...this.activity],
      search: this.lastSearch,
    };
  }

  private withCheckFlags(library: Library, view: PageView): PageView {
    const flags = this.checkFlags.get(view.id) ?? [];
    if (flags.length === 0) return view;
    return { ...view, flags: [...view.flags, ...flags.map((flag) => `${flag.kind} with ${library.page(flag.otherPageId)?.meta.title ?? flag.otherPageId}: ${flag.detail}`)] };
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative.length > 0 && !relative.startsWith('..') && !path.isAbsolute(relative);
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

/**
 * Loading a library from a folder: pages, packs, settings, folders, names, the link graph
 * and the search index. A page or pack that does not load is reported as a problem with
 * its file and line; the rest of the library still loads. With `indexFile`, parsed pages
 * and the search index are saved and only changed files are parsed and indexed again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { silentLogger, type Logger } from '../ports';
import { sha256 } from '../pipeline/hash';
import { buildFolders } from './folders';
import { collectNames, type KnownName } from './names';
import { packSchema, settingsSchema } from './pack';
import { parseYamlFile } from './yamlFile';
import { parsePage } from './page';
import { pageUnits, SectionIndex, type SearchUnit } from './sectionIndex';
import type { IndexData } from './indexBuild';
import { pageCountedLazily, sectionCountedLazily } from './lazyTokens';
import type { Folder, LibraryProblem, LibrarySettings, Pack, Page, Section } from './types';
import { writeFileAtomic } from '../files';

/** Version of the saved index file; a file of another version is never read as this one. */
export const INDEX_SCHEMA_VERSION = 3;

/** Options of {@link loadLibrary}. */
export interface LoadLibraryOptions {
  /** Where non-fatal problems go, with a machine-readable code. */
  readonly logger?: Logger;
  /**
   * A file to keep parsed pages and the search index in between loads (e.g.
   * `.herald/.index.json`). Unchanged files are not parsed or indexed again.
   */
  readonly indexFile?: string;
}

/** How the last load went, for the benchmark and the activity log. */
export interface LoadStatistics {
  readonly files: number;
  /** Pages parsed and indexed on this load. */
  readonly parsed: number;
  /** Pages taken unchanged from the saved index. */
  readonly reused: number;
  /** Pages that were in the saved index and are gone. */
  readonly removed: number;
}

/** A page as the saved index keeps it: without token counts, which are counted when first read. */
type SavedPage = Omit<Page, 'tokens' | 'sections'> & { readonly sections: readonly Omit<Section, 'tokens'>[] };

interface SavedIndex {
  readonly schemaVersion: number;
  readonly pages: Record<string, SavedPage>;
  readonly search: IndexData;
}

/** A loaded library: everything get_context, read_page and the sidebar need. */
export class Library {
  private readonly byId = new Map<string, Page>();
  private readonly byTitle = new Map<string, Page>();
  private readonly unitsById = new Map<string, SearchUnit>();
  /** Page id → ids of the pages it links to. */
  readonly linksFrom = new Map<string, string[]>();
  /** Page id → ids of the pages that link to it. */
  readonly linksTo = new Map<string, string[]>();
  readonly folders: readonly Folder[];
  readonly names: readonly KnownName[];

  constructor(
    /** Absolute path of the library folder. */
    readonly root: string,
    readonly pages: readonly Page[],
    readonly packs: readonly Pack[],
    readonly problems: readonly LibraryProblem[],
    readonly settings: LibrarySettings,
    readonly index: SectionIndex,
    readonly statistics: LoadStatistics,
  ) {
    for (const page of pages) {
      this.byId.set(page.id, page);
      if (!this.byTitle.has(page.meta.title.toLowerCase())) this.byTitle.set(page.meta.title.toLowerCase(), page);
      for (const unit of pageUnits(page)) this.unitsById.set(unit.id, unit);
    }
    for (const page of pages) {
      const targets = page.links.map((link) => this.resolve(link)?.id).filter((id): id is string => id !== undefined && id !== page.id);
      this.linksFrom.set(page.id, [...new Set(targets)]);
      for (const target of new Set(targets)) {
        const sources = this.linksTo.get(target);
        if (sources) sources.push(page.id);
        else this.linksTo.set(target, [page.id]);
      }
    }
    this.folders = buildFolders(pages);
    this.names = collectNames(pages);
  }

  /** A page by id. */
  page(id: string): Page | undefined {
    return this.byId.get(id);
  }

  /** A page by id or by title (case-insensitive), as links and packs name them. */
  resolve(reference: string): Page | undefined {
    return this.byId.get(reference) ?? this.byTitle.get(reference.trim().toLowerCase());
  }

  /** A search unit (section or row) by id. */
  unit(id: string): SearchUnit | undefined {
    return this.unitsById.get(id);
  }

  folder(folderPath: string): Folder | undefined {
    return this.folders.find((folder) => folder.path === folderPath);
  }
}

/** Loads the library in `directory`. Throws only when the folder cannot be read or the saved index is of an unknown version. */
export function loadLibrary(directory: string, options: LoadLibraryOptions = {}): Library {
  const logger = options.logger ?? silentLogger;
  const root = path.resolve(directory);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new Error(`Herald: library folder ${root} does not exist`);
  const files = listFiles(root);
  const saved = options.indexFile ? readSavedIndex(options.indexFile, logger) : undefined;
  const problems: LibraryProblem[] = [];
  const pages: Page[] = [];
  const seenIds = new Map<string, string>();
  const changed: Page[] = [];
  for (const relative of files.filter((file) => file.toLowerCase().endsWith('.md'))) {
    const source = fs.readFileSync(path.join(root, relative), 'utf8');
    const previous = saved?.pages[relative];
    let page: Page;
    const reused = previous !== undefined && previous.hash === sha256(source);
    if (reused) {
      page = restorePage(previous);
    } else {
      const parsed = parsePage(relative, source);
      if ('problems' in parsed) {
        for (const problem of parsed.problems) {
          problems.push(problem);
          logger.warn(problem.code, `Herald: ${problem.file}:${problem.line ?? 1}: ${problem.message}`);
        }
        continue;
      }
      page = parsed.page;
    }
    const clash = seenIds.get(page.id);
    if (clash !== undefined) {
      const problem = { code: 'page-id-duplicate', file: relative, line: 1, message: `duplicate page id "${page.id}" in ${clash} and ${relative}; the second is skipped` };
      problems.push(problem);
      logger.warn(problem.code, `Herald: ${problem.message}`);
      continue;
    }
    seenIds.set(page.id, relative);
    pages.push(page);
    if (!reused) changed.push(page);
  }
  const { index, data } = buildIndex(saved, pages, changed);
  const loadedPaths = new Set(pages.map((page) => page.path));
  const removed = saved ? Object.keys(saved.pages).filter((file) => !loadedPaths.has(file)).length : 0;
  if (options.indexFile && (changed.length > 0 || removed > 0 || !saved)) writeSavedIndex(options.indexFile, pages, data ?? index.toData());
  const settings = loadSettings(root, files, problems, logger);
  const pageIndex = new Map(pages.map((page) => [page.id, page]));
  const titleIndex = new Map(pages.map((page) => [page.meta.title.toLowerCase(), page]));
  const packs = loadPacks(root, files, problems, logger, (reference) => pageIndex.get(reference) ?? titleIndex.get(reference.toLowerCase()));
  return new Library(root, pages, packs, problems, settings, index, { files: files.length, parsed: changed.length, reused: pages.length - changed.length, removed });
}

/** Files inside the library, relative, forward slashes, sorted; hidden entries are skipped. */
function listFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const relative = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else if (entry.isFile()) found.push(relative);
    }
  };
  walk('');
  return found.sort();
}

function readSavedIndex(file: string, logger: Logger): SavedIndex | undefined {
  if (!fs.existsSync(file)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    logger.warn('index-unreadable', `Herald: saved index ${file} is not valid JSON; rebuilding it`);
    return undefined;
  }
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version !== 'number' || version > INDEX_SCHEMA_VERSION) {
    throw new Error(`Herald: saved index ${file} has schema version ${String(version)}, this Herald reads version ${INDEX_SCHEMA_VERSION}; delete the file to rebuild it`);
  }
  if (version < INDEX_SCHEMA_VERSION) {
    logger.info('index-outdated', `Herald: saved index ${file} is version ${version}; rebuilding it as version ${INDEX_SCHEMA_VERSION}`);
    return undefined;
  }
  return data as SavedIndex;
}

function writeSavedIndex(file: string, pages: readonly Page[], search: IndexData): void {
  const saved: SavedIndex = { schemaVersion: INDEX_SCHEMA_VERSION, pages: Object.fromEntries(pages.map((page) => [page.path, savedPage(page)])), search };
  writeFileAtomic(file, JSON.stringify(saved));
}

/** The page without its token counts; only the named fields are read, so nothing is counted to save it. */
function savedPage(page: Page): SavedPage {
  const { id, path: pagePath, folder, meta, body, terms, links, hash, readWhole } = page;
  const sections = page.sections.map(({ id: sectionId, pageId, index, headingPath, text, rows }) => ({ id: sectionId, pageId, index, headingPath, text, rows }));
  return { id, path: pagePath, folder, meta, body, terms, sections, links, hash, readWhole };
}

function restorePage(saved: SavedPage): Page {
  return pageCountedLazily({ ...saved, sections: saved.sections.map(sectionCountedLazily) });
}

/**
 * Reuses the saved search index when there is one: only changed and removed pages are
 * touched. An index built whole comes with the data it was built from, which is saved as it
 * is rather than read back out of the index.
 */
function buildIndex(saved: SavedIndex | undefined, pages: readonly Page[], changed: readonly Page[]): { index: SectionIndex; data?: IndexData } {
  if (!saved) {
    const data = SectionIndex.dataOf(pages.flatMap(pageUnits));
    return { index: SectionIndex.fromData(data), data };
  }
  const index = SectionIndex.fromData(saved.search);
  const current = new Map(pages.map((page) => [page.path, page]));
  for (const [file, old] of Object.entries(saved.pages)) {
    if (current.get(file)?.hash !== old.hash) index.discard(savedUnitIds(old));
  }
  for (const page of changed) index.add(pageUnits(page).filter((unit) => !index.has(unit.id)));
  return { index };
}

function savedUnitIds(page: SavedPage): string[] {
  return page.sections.flatMap((section) => [section.id, ...section.rows.map((row) => row.id)]);
}

function loadSettings(root: string, files: readonly string[], problems: LibraryProblem[], logger: Logger): LibrarySettings {
  if (!files.includes('library.yaml')) return {};
  const parsed = parseYamlFile(fs.readFileSync(path.join(root, 'library.yaml'), 'utf8'), settingsSchema);
  if (parsed.ok) return parsed.value;
  for (const problem of parsed.problems) {
    problems.push({ code: 'settings-invalid', file: 'library.yaml', line: problem.line, message: problem.message });
    logger.warn('settings-invalid', `Herald: library.yaml:${problem.line}: ${problem.message}`);
  }
  return {};
}

function loadPacks(root: string, files: readonly string[], problems: LibraryProblem[], logger: Logger, resolve: (reference: string) => Page | undefined): Pack[] {
  const packs: Pack[] = [];
  for (const file of files.filter((name) => /\.pack\.ya?ml$/i.test(name))) {
    const parsed = parseYamlFile(fs.readFileSync(path.join(root, file), 'utf8'), packSchema);
    if (!parsed.ok) {
      for (const problem of parsed.problems) {
        problems.push({ code: 'pack-invalid', file, line: problem.line, message: problem.message });
        logger.warn('pack-invalid', `Herald: ${file}:${problem.line}: ${problem.message}`);
      }
      continue;
    }
    const ids = (references: readonly string[]): string[] => references.flatMap((reference) => {
      const page = resolve(reference);
      if (page) return [page.id];
      problems.push({ code: 'pack-page-unknown', file, message: `pack "${parsed.value.name}" names "${reference}", which is not a page in the library` });
      logger.warn('pack-page-unknown', `Herald: ${file}: pack "${parsed.value.name}" names unknown page "${reference}"`);
      return [];
    });
    const value = parsed.value;
    packs.push({ name: value.name, description: value.description, goodFor: value.good_for, always: ids(value.always), whenRelevant: ids(value.when_relevant), path: file });
  }
  return packs;
}

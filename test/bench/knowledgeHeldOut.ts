/**
 * The held-out library tasks (test/unit/knowledge/heldOutTasks.ts) scored per half, by words (the
 * default) and with the shipped model's meaning asked for: a task is right when its bundle holds
 * every page it needs and none it must not, and a task the library does not cover finds nothing.
 */
import { getContext, loadLibrary, type Library } from '../../src/core/knowledge';
import { bundledModelFolder, loadEmbedder } from '../../src/core/relevance';
import { HELD_OUT_LIBRARY_DIRS, heldOutLibraryTasks, type HeldOutLibrary, type HeldOutLibraryTask } from '../unit/knowledge/heldOutTasks';

const today = (): Date => new Date('2026-06-01T12:00:00Z');

interface HalfScore {
  readonly right: number;
  readonly tasks: number;
  readonly wrong: readonly string[];
}

async function score(tasks: readonly HeldOutLibraryTask[], libraries: ReadonlyMap<HeldOutLibrary, Library>, meaning: boolean): Promise<HalfScore> {
  const embedder = meaning ? await loadEmbedder(bundledModelFolder()!) : undefined;
  const wrong: string[] = [];
  for (const entry of tasks) {
    const result = await getContext(libraries.get(entry.library)!, { task: entry.task }, { now: today, ...(embedder ? { embedder, options: { shippedModelMeaning: true } } : {}) });
    const ids = new Set(result.pages.map((page) => page.page_id));
    const missing = entry.wanted.filter((id) => !ids.has(id));
    const unwanted = entry.unwanted.filter((id) => ids.has(id));
    const ok = entry.wanted.length === 0 ? result.nothingFound && unwanted.length === 0 : missing.length === 0 && unwanted.length === 0;
    if (!ok) wrong.push(`${entry.id}${missing.length > 0 ? ` missing ${missing.join(' ')}` : ''}${unwanted.length > 0 ? ` brought ${unwanted.join(' ')}` : ''}${entry.wanted.length === 0 && !result.nothingFound ? ' (found something)' : ''}`);
  }
  return { right: tasks.length - wrong.length, tasks: tasks.length, wrong };
}

/** One line per half and ranking, the tasks it got wrong named. */
export async function heldOutLibraryQuality(): Promise<{ lines: string[]; figures: Record<string, number> }> {
  const libraries = new Map<HeldOutLibrary, Library>(Object.entries(HELD_OUT_LIBRARY_DIRS).map(([name, folder]) => [name as HeldOutLibrary, loadLibrary(folder)]));
  const lines: string[] = [];
  const figures: Record<string, number> = {};
  for (const half of ['tune', 'measure'] as const) {
    const tasks = heldOutLibraryTasks(half);
    for (const meaning of [false, true]) {
      const result = await score(tasks, libraries, meaning);
      const label = meaning ? 'words + shipped model' : 'words (default)';
      lines.push(`held-out library tasks, ${half} half, ${label}: ${result.right}/${result.tasks} right${result.wrong.length > 0 ? `; wrong: ${result.wrong.join('; ')}` : ''}`);
      figures[`heldOut_${half}_${meaning ? 'model' : 'words'}_right`] = result.right;
      figures[`heldOut_${half}_tasks`] = result.tasks;
    }
  }
  return { lines, figures };
}

/**
 * The knowledge library at scale: a 5,000-page library generated (into a temp folder) from
 * the prose and HTML text in ../shared/data, then index build time and memory, saved-index
 * reload and incremental rebuild, and get_context latency over tasks drawn from the text;
 * and the task suite on the hand-written test library (wanted pages found, unwanted sent).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { getContext, loadLibrary } from '../../src/core/knowledge';
import { generatedTasks, generateLibrary, sourceSentences } from '../unit/knowledge/generatedLibrary';
import { LIBRARY_TASKS } from '../unit/knowledge/taskSuite';
import { heldOutLibraryQuality } from './knowledgeHeldOut';
import type { BenchReport } from './run';
import { median, quantile } from './stats';

const PAGE_COUNT = Number(process.env.HERALD_BENCH_PAGES ?? 5000);

function collectGarbage(): void {
  v8.setFlagsFromString('--expose_gc');
  (vm.runInNewContext('gc') as () => void)();
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The task suite on the hand-written test library: wanted pages found, unwanted pages sent, latency. */
async function testLibraryQuality(): Promise<{ line: string; figures: Record<string, number> }> {
  const library = loadLibrary(path.resolve(__dirname, '..', 'fixtures', 'library'));
  const today = (): Date => new Date('2026-06-01T12:00:00Z');
  let wanted = 0;
  let found = 0;
  let unwantedSent = 0;
  const durations: number[] = [];
  for (const entry of LIBRARY_TASKS) {
    const started = performance.now();
    const result = await getContext(library, { task: entry.task }, { now: today });
    durations.push(performance.now() - started);
    const ids = new Set(result.pages.map((page) => page.page_id));
    wanted += entry.wanted.length;
    found += entry.wanted.filter((id) => ids.has(id)).length;
    unwantedSent += entry.unwanted.filter((id) => ids.has(id)).length;
  }
  return {
    line: `test library (${library.pages.length} pages, ${LIBRARY_TASKS.length} tasks, heuristics, no model): wanted pages found ${found}/${wanted}, unwanted pages sent ${unwantedSent}; get_context median ${median(durations).toFixed(1)} ms`,
    figures: { suiteTasks: LIBRARY_TASKS.length, suiteWanted: wanted, suiteFound: found, suiteUnwantedSent: unwantedSent, suiteMedianMs: median(durations) },
  };
}

export async function bench(): Promise<BenchReport> {
  const quality = await testLibraryQuality();
  const heldOut = await heldOutLibraryQuality();
  const sentences = sourceSentences();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-library-'));
  const indexFile = path.join(os.tmpdir(), `herald-bench-index-${process.pid}.json`);
  try {
    let started = performance.now();
    generateLibrary(directory, sentences, PAGE_COUNT);
    const generateMs = performance.now() - started;

    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    started = performance.now();
    const library = loadLibrary(directory);
    const buildDurations = [performance.now() - started];
    collectGarbage();
    const heapAfter = process.memoryUsage().heapUsed;
    // Two more cold builds: the machine is shared, one figure alone says little.
    for (let run = 0; run < 2; run++) {
      started = performance.now();
      loadLibrary(directory);
      buildDurations.push(performance.now() - started);
    }
    const buildMs = median(buildDurations);
    const flatDirectory = path.join(directory, '..', `${path.basename(directory)}-one-folder`);
    generateLibrary(flatDirectory, sentences, PAGE_COUNT, { oneFolder: true });
    started = performance.now();
    loadLibrary(flatDirectory);
    const oneFolderBuildMs = performance.now() - started;
    fs.rmSync(flatDirectory, { recursive: true, force: true });
    const sections = library.pages.reduce((sum, page) => sum + page.sections.length, 0);
    const rows = library.pages.reduce((sum, page) => sum + page.sections.reduce((inner, section) => inner + section.rows.length, 0), 0);

    started = performance.now();
    loadLibrary(directory, { indexFile });
    const savedBuildMs = performance.now() - started;
    started = performance.now();
    const reloaded = loadLibrary(directory, { indexFile });
    const reloadMs = performance.now() - started;
    const changedFile = path.join(directory, library.pages[100]!.path);
    fs.appendFileSync(changedFile, '\nA new closing paragraph about quarterly filing deadlines.\n');
    started = performance.now();
    const incremental = loadLibrary(directory, { indexFile });
    const incrementalMs = performance.now() - started;

    const tasks = generatedTasks(sentences, 20);
    started = performance.now();
    await getContext(library, { task: tasks[0]! });
    const firstCallMs = performance.now() - started;
    const durations: number[] = [];
    const tokens: number[] = [];
    let nothing = 0;
    for (let round = 0; round < 2; round++) {
      for (const task of tasks) {
        started = performance.now();
        const result = await getContext(library, { task });
        durations.push(performance.now() - started);
        tokens.push(result.tokens);
        if (round === 0 && result.nothingFound) nothing++;
      }
    }
    const indexBytes = fs.statSync(indexFile).size;
    const lines = [
      `library: ${library.pages.length} pages (${library.problems.length} problems), ${sections} sections, ${rows} table rows, ${library.folders.length} folders, from ${sentences.length} sentences of the essays and HTML pages; generated in ${(generateMs / 1000).toFixed(1)} s`,
      `index build (cold, no saved index): median ${(buildMs / 1000).toFixed(2)} s of ${buildDurations.map((duration) => (duration / 1000).toFixed(2)).join(', ')}; every page in one folder ${(oneFolderBuildMs / 1000).toFixed(2)} s; heap held by the library ${megabytes(heapAfter - heapBefore)} (rss ${megabytes(process.memoryUsage().rss)})`,
      `saved index: first build + write ${(savedBuildMs / 1000).toFixed(2)} s (${megabytes(indexBytes)} on disk); reload unchanged ${(reloadMs / 1000).toFixed(2)} s (${reloaded.statistics.reused} reused); one page changed ${(incrementalMs / 1000).toFixed(2)} s (${incremental.statistics.parsed} parsed)`,
      quality.line,
      ...heldOut.lines,
      `get_context: first call ${firstCallMs.toFixed(0)} ms; then median ${median(durations).toFixed(1)} ms, p95 ${quantile(durations, 0.95).toFixed(1)} ms over ${durations.length} calls (${tasks.length} tasks × 2); bundle median ${median(tokens)} tokens of 12,000; nothing found for ${nothing} of ${tasks.length}`,
    ];
    return {
      title: `Knowledge library: ${library.pages.length}-page library from ../shared/data`,
      lines,
      figures: { ...quality.figures, ...heldOut.figures, pages: library.pages.length, sections, rows, buildMs, buildRunsMs: buildDurations, oneFolderBuildMs, heapBytes: heapAfter - heapBefore, savedBuildMs, reloadMs, incrementalMs, indexBytes, firstCallMs, medianMs: median(durations), p95Ms: quantile(durations, 0.95), medianTokens: median(tokens), nothingFound: nothing, tasks: tasks.length },
    };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
    fs.rmSync(indexFile, { force: true });
  }
}

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
import { sharedPath } from '../support/sharedData';
import { LIBRARY_TASKS } from '../unit/knowledge/taskSuite';
import type { BenchReport } from './run';
import { median, quantile } from './stats';

const PAGE_COUNT = Number(process.env.HERALD_BENCH_PAGES ?? 5000);
const TYPES = ['reference', 'reference', 'reference', 'process', 'persona', 'template', 'voice', 'battlecard', 'table', 'reference'];
const STOP = new Set('the a an and or of to in is it that for on with as was at by be this are from but not have had you they we he she his her its their our i my me so if what which who when there been were would could will can do does than then them these those just about more very also into only some any all out up one'.split(' '));

/** Sentences from the essays and the readable part of every HTML page, with where each came from. */
function sourceSentences(): { source: string; text: string }[] {
  const sentences: { source: string; text: string }[] = [];
  const add = (source: string, text: string): void => {
    for (const sentence of text.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z"“])/)) {
      const trimmed = sentence.trim();
      if (trimmed.length >= 40 && trimmed.length <= 400) sentences.push({ source, text: trimmed });
    }
  };
  const proseDir = sharedPath('prose', 'paul-graham-essays');
  for (const file of fs.readdirSync(proseDir).filter((name) => name.endsWith('.txt')).sort()) add(file.replace(/\.txt$/, ''), fs.readFileSync(path.join(proseDir, file), 'utf8'));
  const htmlDir = sharedPath('html');
  for (const name of fs.readdirSync(htmlDir).sort()) {
    const file = path.join(htmlDir, name, 'expected.html');
    if (!fs.existsSync(file)) continue;
    const html = fs.readFileSync(file, 'utf8');
    for (const match of html.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/gi)) add(name, decode(match[1]!.replace(/<[^>]+>/g, ' ')));
  }
  return sentences;
}

function decode(text: string): string {
  return text.replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;|&rsquo;|&lsquo;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&[a-z]+;|&#\d+;/g, ' ');
}

function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z]+/).filter((word) => word.length > 3 && !STOP.has(word));
}

function yamlString(text: string): string {
  return JSON.stringify(text);
}

/** Writes the generated library; deterministic for a given data folder. */
function generate(directory: string, sentences: readonly { source: string; text: string }[]): void {
  for (let index = 0; index < PAGE_COUNT; index++) {
    const start = (index * 7919) % sentences.length;
    const take = (offset: number): { source: string; text: string } => sentences[(start + offset) % sentences.length]!;
    const first = take(0);
    const title = `${first.text.split(/\s+/).slice(0, 6).join(' ').replace(/[^\p{L}\p{N} '-]/gu, '')} (${index})`;
    const frequency = new Map<string, number>();
    for (let offset = 0; offset < 12; offset++) for (const word of words(take(offset).text)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    const tags = [...frequency].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 2).map(([word]) => word);
    const type = index < 20 ? 'rule' : TYPES[index % TYPES.length]!;
    const body: string[] = [`# ${title}`, ''];
    const sectionCount = type === 'rule' ? 1 : 3;
    for (let section = 0; section < sectionCount; section++) {
      const lead = take(section * 4 + 1);
      body.push(`## ${lead.text.split(/\s+/).slice(0, 5).join(' ').replace(/[^\p{L}\p{N} '-]/gu, '')}`, '');
      for (let offset = 0; offset < (type === 'rule' ? 2 : 4); offset++) body.push(take(section * 4 + offset + 1).text);
      body.push('');
    }
    if (type === 'table') {
      body.push('## Figures', '', `Key terms of ${title}.`, '', '| Term | Count | Example |', '|---|---|---|');
      for (const [word, count] of [...frequency].slice(0, 5)) body.push(`| ${word} | ${count} | ${take(count).text.split(/\s+/).slice(0, 4).join(' ')} |`);
      body.push('');
    }
    if (index % 25 === 0 && index > 0) body.push(`See also [[${(`${sentences[((index - 25) * 7919) % sentences.length]!.text.split(/\s+/).slice(0, 6).join(' ').replace(/[^\p{L}\p{N} '-]/gu, '')} (${index - 25})`)}]].`);
    const front = [
      '---',
      `title: ${yamlString(title)}`,
      `type: ${type}`,
      `tags: [${tags.map(yamlString).join(', ')}]`,
      `good_for: [${yamlString(`reading about ${tags.join(' and ')}`)}]`,
      ...(index % 500 === 7 ? ['pinned: true'] : []),
      ...(index % 97 === 3 ? ['status: draft'] : []),
      '---',
    ];
    const folder = path.join(directory, first.source.replace(/[^a-z0-9-]+/gi, '-').toLowerCase());
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `page-${index}.md`), `${front.join('\n')}\n${body.join('\n')}\n`);
  }
}

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
  const sentences = sourceSentences();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-library-'));
  const indexFile = path.join(os.tmpdir(), `herald-bench-index-${process.pid}.json`);
  try {
    let started = performance.now();
    generate(directory, sentences);
    const generateMs = performance.now() - started;

    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    started = performance.now();
    const library = loadLibrary(directory);
    const buildMs = performance.now() - started;
    collectGarbage();
    const heapAfter = process.memoryUsage().heapUsed;
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

    const tasks = Array.from({ length: 20 }, (_, index) => sentences[(index * 104_729) % sentences.length]!.text.split(/\s+/).slice(0, 12).join(' '));
    tasks.push('write an email to investors about startup funding', 'what did the article say about gun safety laws');
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
      `index build (cold, no saved index): ${(buildMs / 1000).toFixed(2)} s; heap held by the library ${megabytes(heapAfter - heapBefore)} (rss ${megabytes(process.memoryUsage().rss)})`,
      `saved index: first build + write ${(savedBuildMs / 1000).toFixed(2)} s (${megabytes(indexBytes)} on disk); reload unchanged ${(reloadMs / 1000).toFixed(2)} s (${reloaded.statistics.reused} reused); one page changed ${(incrementalMs / 1000).toFixed(2)} s (${incremental.statistics.parsed} parsed)`,
      quality.line,
      `get_context: first call ${firstCallMs.toFixed(0)} ms; then median ${median(durations).toFixed(1)} ms, p95 ${quantile(durations, 0.95).toFixed(1)} ms over ${durations.length} calls (${tasks.length} tasks × 2); bundle median ${median(tokens)} tokens of 12,000; nothing found for ${nothing} of ${tasks.length}`,
    ];
    return {
      title: `Knowledge library: ${library.pages.length}-page library from ../shared/data`,
      lines,
      figures: { ...quality.figures, pages: library.pages.length, sections, rows, buildMs, heapBytes: heapAfter - heapBefore, savedBuildMs, reloadMs, incrementalMs, indexBytes, firstCallMs, medianMs: median(durations), p95Ms: quantile(durations, 0.95), medianTokens: median(tokens), nothingFound: nothing, tasks: tasks.length },
    };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
    fs.rmSync(indexFile, { force: true });
  }
}

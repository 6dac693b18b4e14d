/**
 * Hardening figures: every regular expression literal in `src/core` against adversarial
 * inputs (1 MB runs of one character without the terminator it waits for, runs of the
 * characters the pattern itself names, nested-repetition bait), each in a worker that is
 * killed at the time bound; peak memory of the default pipeline on a 10 MB tool output and
 * on a 2,000-message session (child processes with a bounded heap); and the stash's size cap
 * under concurrent load.
 *
 * HERALD_BENCH_REGEX_KB sets the input size (default 1024 KB); HERALD_BENCH_REGEX_BOUND_MS the
 * bound per input (default 1000 ms).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import ts from 'typescript';
import { FileBlobStore, Stash } from '../../src/core/stash';
import type { BenchReport } from './run';

const ROOT = path.resolve(__dirname, '..', '..');
const INPUT_KB = Number(process.env.HERALD_BENCH_REGEX_KB ?? 1024);
const BOUND_MS = Number(process.env.HERALD_BENCH_REGEX_BOUND_MS ?? 1000);

interface FoundRegex {
  readonly file: string;
  readonly line: number;
  readonly source: string;
  readonly flags: string;
}

/** Every regular expression literal in src/core (tests excluded), found with the TypeScript parser. */
function regexLiterals(): FoundRegex[] {
  const found: FoundRegex[] = [];
  const walk = (directory: string): void => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        const text = fs.readFileSync(full, 'utf8');
        const source = ts.createSourceFile(full, text, ts.ScriptTarget.Latest, true);
        const visit = (node: ts.Node): void => {
          if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
            const literal = node.getText(source);
            const end = literal.lastIndexOf('/');
            found.push({ file: path.relative(ROOT, full), line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, source: literal.slice(1, end), flags: literal.slice(end + 1) });
          }
          ts.forEachChild(node, visit);
        };
        visit(source);
      }
    }
  };
  walk(path.join(ROOT, 'src', 'core'));
  return found;
}

/**
 * The adversarial inputs for one pattern, as recipes the worker expands (so megabytes are
 * never copied between threads): runs of one character, and runs of each pair of characters
 * the pattern names, each followed by a character that breaks the match at the very end.
 */
function recipes(source: string): string[][] {
  const generic = ['a', ' ', '\t', '0', '-', '.', '/', '\\', '"', "'", '[', '(', '{', '<', '#', '*', '=', ':', ',', '_', 'é', '\u0000'];
  const named = [...new Set(source.replace(/\\[dswbDSWB]/g, '').replace(/[\\^$|?*+()[\]{}]/g, '').split(''))].filter((char) => char.trim().length > 0 || char === ' ').slice(0, 24);
  const units: string[][] = generic.map((char) => [char]);
  for (const char of named) units.push([char]);
  // Alternations of two named characters feed patterns like (a|ab)* or (\w+\s?)+.
  for (let index = 0; index + 1 < named.length; index += 2) units.push([named[index]!, named[index + 1]!]);
  units.push(['a', ' '], ['a', '\n'], ['0', '.'], ['-', '-', ' '], ['a', '=', '"'], ['#', ' ']);
  return units;
}

const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { source, flags, recipes, size } = workerData;
const regex = new RegExp(source, flags);
let slowest = { ms: 0, recipe: '' };
for (const recipe of recipes) {
  const unit = recipe.join('');
  const text = unit.repeat(Math.ceil(size / unit.length)).slice(0, size) + '\\u0001';
  parentPort.postMessage({ started: recipe });
  const started = performance.now();
  if (regex.global || regex.sticky) {
    regex.lastIndex = 0;
    let count = 0;
    for (let match = regex.exec(text); match && count < 100000; match = regex.exec(text)) {
      count++;
      if (match[0].length === 0) regex.lastIndex++;
    }
  } else {
    regex.exec(text);
  }
  const ms = performance.now() - started;
  if (ms > slowest.ms) slowest = { ms, recipe: JSON.stringify(unit) };
}
parentPort.postMessage({ done: slowest });
`;

/**
 * Patterns that are super-linear on their own but only ever see a bounded slice of text, so a
 * long line cannot reach them (file and the start of the pattern → the bound at the call site).
 */
const BOUNDED_AT_CALL_SITE: readonly [string, string, string][] = [
  ['src/core/content/stackTrace.ts', '^[\\w.*/()[\\]$-]{1,300}', 'lines over 1,000 characters are skipped'],
  ['src/core/strategies/history/textUnits.ts', '(`{3,}|~{3,})([A-Za-z-]+)', "run on a line's last 512 characters"],
  ['src/core/strategies/signals/shapeClass.ts', 'test session starts', "run on an output's first 2,000 characters"],
];

function boundAtCallSite(regex: FoundRegex): string | undefined {
  return BOUNDED_AT_CALL_SITE.find(([file, start]) => regex.file === file && regex.source.startsWith(start))?.[2];
}

interface RegexOutcome {
  readonly regex: FoundRegex;
  readonly slowestMs: number;
  readonly slowestInput: string;
  readonly timedOut: boolean;
}

/** Runs one pattern on its inputs in a worker; kills it when one input passes the bound. */
function timeRegex(regex: FoundRegex): Promise<RegexOutcome> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_CODE, { eval: true, workerData: { source: regex.source, flags: regex.flags, recipes: recipes(regex.source), size: INPUT_KB * 1024 } });
    let current = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        void worker.terminate();
        resolve({ regex, slowestMs: BOUND_MS, slowestInput: current, timedOut: true });
      }, BOUND_MS + 500);
    };
    arm();
    worker.on('message', (message: { started?: string[]; done?: { ms: number; recipe: string } }) => {
      if (message.started) {
        current = JSON.stringify(message.started.join(''));
        arm();
      }
      if (message.done) {
        if (timer) clearTimeout(timer);
        void worker.terminate();
        resolve({ regex, slowestMs: message.done.ms, slowestInput: message.done.recipe, timedOut: message.done.ms > BOUND_MS });
      }
    });
    worker.on('error', () => {
      if (timer) clearTimeout(timer);
      resolve({ regex, slowestMs: 0, slowestInput: 'worker error', timedOut: false });
    });
  });
}

interface MemoryFigure {
  readonly scenario: string;
  readonly inputBytes: number;
  readonly baselineRssBytes: number;
  readonly peakRssBytes: number;
  readonly peakHeapBytes: number;
  readonly durationMs: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly failed: readonly string[];
}

/** One scenario in a child process with a bounded heap. */
function memoryRun(scenario: string, heapMb: number): MemoryFigure | string {
  const child = spawnSync(process.execPath, [`--max-old-space-size=${heapMb}`, '--import', 'tsx', path.join(ROOT, 'test', 'unit', 'hardening', 'memoryScenario.ts'), scenario], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1024 * 1024 });
  if (child.status !== 0) return `exit ${String(child.status)}: ${(child.stderr ?? '').split('\n').find((line) => line.trim().length > 0) ?? ''}`;
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as MemoryFigure;
}

/** Concurrent elisions and flushes into a capped file stash: the largest total ever seen on disk. */
async function stashUnderLoad(): Promise<{ capBytes: number; writtenBytes: number; maxOnDiskBytes: number; keptEntries: number; failedWrites: number; problems: Record<string, number> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-cap-'));
  const capBytes = 4 * 1024 * 1024;
  const problems: Record<string, number> = {};
  const store = new FileBlobStore(directory);
  const stash = new Stash({ store, key: new Uint8Array(32), maxBytes: capBytes, onProblem: (code) => void (problems[code] = (problems[code] ?? 0) + 1) });
  let writtenBytes = 0;
  let maxOnDiskBytes = 0;
  let failedWrites = 0;
  const diskBytes = (): number => fs.readdirSync(directory).filter((name) => name.endsWith('.json')).reduce((sum, name) => sum + fs.statSync(path.join(directory, name)).size, 0);
  // Eight writers, 40 batches each, entries of 10 KB to 600 KB (one in 20 is over the cap).
  await Promise.all(Array.from({ length: 8 }, async (_, writer) => {
    for (let batch = 0; batch < 40; batch++) {
      for (let item = 0; item < 3; item++) {
        const size = (batch * 3 + item) % 20 === 19 ? capBytes + 1024 : 10_240 + ((writer * 7919 + batch * 104_729 + item) % 600_000);
        const original = `writer ${writer} batch ${batch} item ${item}\n`.padEnd(size, 'x');
        stash.elide({ original, summary: `${size} bytes elided`, kind: 'bench' });
        writtenBytes += size;
      }
      const failed = await stash.flush();
      failedWrites += failed.length;
      maxOnDiskBytes = Math.max(maxOnDiskBytes, diskBytes());
    }
  }));
  const keptEntries = fs.readdirSync(directory).filter((name) => name.endsWith('.json')).length;
  fs.rmSync(directory, { recursive: true, force: true });
  return { capBytes, writtenBytes, maxOnDiskBytes, keptEntries, failedWrites, problems };
}

export async function bench(): Promise<BenchReport> {
  const lines: string[] = [];
  const figures: Record<string, unknown> = {};

  // Regular expressions: two workers at a time (the machine is shared).
  const literals = regexLiterals();
  const outcomes: RegexOutcome[] = [];
  for (let index = 0; index < literals.length; index += 2) outcomes.push(...(await Promise.all(literals.slice(index, index + 2).map(timeRegex))));
  outcomes.sort((a, b) => b.slowestMs - a.slowestMs);
  const overAll = outcomes.filter((outcome) => outcome.timedOut);
  const bounded = overAll.filter((outcome) => boundAtCallSite(outcome.regex) !== undefined);
  const overBound = overAll.filter((outcome) => boundAtCallSite(outcome.regex) === undefined);
  const inputsPerPattern = literals.length === 0 ? 0 : Math.round(literals.reduce((sum, regex) => sum + recipes(regex.source).length, 0) / literals.length);
  lines.push(`Regular expressions: ${literals.length} literals in src/core, ~${inputsPerPattern} adversarial ${INPUT_KB} KB inputs each, bound ${BOUND_MS} ms per input`);
  lines.push(`  over the bound and reachable by a long line: ${overBound.length}${overBound.length > 0 ? ` (${overBound.map((outcome) => `${outcome.regex.file}:${outcome.regex.line}`).join(', ')})` : ''}`);
  lines.push(`  over the bound but fed a bounded slice at the call site: ${bounded.length}${bounded.length > 0 ? ` (${bounded.map((outcome) => `${outcome.regex.file}:${outcome.regex.line}: ${boundAtCallSite(outcome.regex)!}`).join('; ')})` : ''}`);
  lines.push('  slowest five:');
  for (const outcome of outcomes.slice(0, 5)) lines.push(`    ${outcome.slowestMs.toFixed(1).padStart(8)} ms  ${outcome.regex.file}:${outcome.regex.line}  /${outcome.regex.source.slice(0, 70)}/${outcome.regex.flags}  on ${outcome.slowestInput.slice(0, 12)} × ${INPUT_KB} KB`);
  figures.regex = {
    literals: literals.length,
    inputKb: INPUT_KB,
    boundMs: BOUND_MS,
    boundedAtCallSite: bounded.map((outcome) => `${outcome.regex.file}:${outcome.regex.line}`),
    overBound: overBound.map((outcome) => ({ where: `${outcome.regex.file}:${outcome.regex.line}`, source: outcome.regex.source, input: outcome.slowestInput })),
    slowest: outcomes.slice(0, 10).map((outcome) => ({ where: `${outcome.regex.file}:${outcome.regex.line}`, source: outcome.regex.source, flags: outcome.regex.flags, ms: Math.round(outcome.slowestMs * 10) / 10, input: outcome.slowestInput })),
  };

  // Peak memory, each scenario in its own process with a 768 MB heap ceiling.
  const memory: Record<string, unknown> = {};
  lines.push('Peak memory, default pipeline (child process, --max-old-space-size=768):');
  for (const scenario of ['tool-output-10mb', 'session-2000-messages']) {
    const figure = memoryRun(scenario, 768);
    memory[scenario] = figure;
    if (typeof figure === 'string') {
      lines.push(`  ${scenario}: FAILED (${figure})`);
      continue;
    }
    const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    lines.push(`  ${scenario}: input ${mb(figure.inputBytes)}, peak RSS ${mb(figure.peakRssBytes)} (baseline ${mb(figure.baselineRssBytes)}, +${mb(figure.peakRssBytes - figure.baselineRssBytes)}), peak heap ${mb(figure.peakHeapBytes)}, ${figure.durationMs.toFixed(0)} ms, tokens ${figure.tokensBefore} → ${figure.tokensAfter}${figure.failed.length > 0 ? `, failed: ${figure.failed.join(', ')}` : ''}`);
  }
  figures.memory = memory;

  const load = await stashUnderLoad();
  lines.push(`Stash cap under load (8 concurrent writers, ${(load.writtenBytes / 1024 / 1024).toFixed(0)} MB elided, cap ${(load.capBytes / 1024 / 1024).toFixed(0)} MB): largest on disk after a flush ${(load.maxOnDiskBytes / 1024 / 1024).toFixed(2)} MB, ${load.keptEntries} entries kept, ${load.failedWrites} over-cap entries refused (${Object.entries(load.problems).map(([code, count]) => `${code} ×${count}`).join(', ') || 'no problems'})`);
  figures.stashCap = { ...load, honoured: load.maxOnDiskBytes <= load.capBytes };
  return { title: 'Hardening: regular expressions, peak memory, stash cap', lines, figures };
}

/**
 * code_graph on real material: parse-and-outline throughput per language (MB/s), time per
 * request, tokens saved on the trajectories' file reads, and the share of later-edited
 * definitions kept in full in the outlined history (goal 100%).
 *
 * The evaluation helpers are exported for the trajectory test.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findToolOutputs, parseRequest, type ChatRequest } from '../../src/core/chat';
import { changedLines } from '../support/diffHunks';
import { GrammarLoader, nodeModulesAssetLocator } from '../../src/core/code/grammarLoader';
import { languageFromPath } from '../../src/core/code/languageDetection';
import { LANGUAGES, type LanguageSpec } from '../../src/core/code/languages';
import { outlineSource } from '../../src/core/code/outliner';
import { readHintFromCommand } from '../../src/core/code/readCommands';
import { samePath, normalizePath } from '../../src/core/code/referenceGraph';
import { recognizeSource, type RecognizedSource } from '../../src/core/code/sourceRecognition';
import { extractSymbols, type SourceSymbols } from '../../src/core/code/symbols';
import { freshStartOf, Pipeline } from '../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { createCodeGraph } from '../../src/core/strategies/codeGraph';
import { TokenCounter } from '../../src/core/tokens';
import { loadTrajectory, trajectoryNames, turnRequests, type Trajectory } from '../support/sharedData';
import type { BenchReport } from './run';
import { median, percent, quantile } from './stats';

/** Where `test/setup/fetchSources.sh` puts real source trees. */
export const SOURCES_CACHE = path.resolve(__dirname, '..', '.cache', 'sources');

export interface EditedDefinitionCheck {
  readonly instance: string;
  readonly file: string;
  readonly definition: string;
  /** Reads of the file in the final request that contain the definition. */
  readonly reads: number;
  /** Of those, reads where it is still in full after outlining. */
  readonly keptInFull: number;
}

export interface TrajectoryOutcome {
  readonly instance: string;
  readonly requests: number;
  /** Tokens of every source-file read in history, before and after, summed over requests. */
  readonly readTokensBefore: number;
  readonly readTokensAfter: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly lossless: boolean;
  readonly durationsMs: readonly number[];
  readonly checks: readonly EditedDefinitionCheck[];
}

const grammars = new GrammarLoader(nodeModulesAssetLocator());

/** A read of a file whose name says it is code in a language with a grammar. */
function isSourceRead(command: string | undefined): boolean {
  const hint = command === undefined ? undefined : readHintFromCommand(command);
  return hint !== undefined && languageFromPath(hint.path) !== undefined;
}

/**
 * Replays one trajectory through code_graph alone and checks the definitions its submission
 * edits. The pipeline's cache-write rule is off by default (share 0), so every outline code_graph
 * would make is made and checked; the default pipeline keeps the reads whose outline saves less
 * than its share (see the pipeline bench for what that leaves).
 */
export async function evaluateTrajectory(trajectory: Trajectory, tokens = new TokenCounter(50_000), options: Record<string, unknown> = {}, cachedRewriteMinSavedShare = 0): Promise<TrajectoryOutcome> {
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const pipeline = new Pipeline([createCodeGraph({ assets: nodeModulesAssetLocator() })], { options: { code_graph: options }, cachedRewriteMinSavedShare }, { stash, tokens });
  const bodies = turnRequests(trajectory);
  let tokensBefore = 0;
  let tokensAfter = 0;
  let readTokensBefore = 0;
  let readTokensAfter = 0;
  let lossless = true;
  const durationsMs: number[] = [];
  let last: { original: ChatRequest; optimized: ChatRequest } | undefined;
  for (const body of bodies) {
    const request = parseRequest(body);
    const result = await pipeline.run(request);
    durationsMs.push(result.durationMs);
    tokensBefore += result.tokensBefore;
    tokensAfter += result.tokensAfter;
    const optimizedSegments = new Map(findToolOutputs(result.request).map((segment) => [segment.key, segment.text]));
    const freshStart = freshStartOf(request.messages);
    for (const segment of findToolOutputs(request)) {
      const after = optimizedSegments.get(segment.key);
      // Every source read in history counts, outlined or not: the share saved is of all of them.
      if (after === undefined || segment.messageIndex >= freshStart || !isSourceRead(segment.command)) continue;
      readTokensBefore += tokens.count(segment.text);
      readTokensAfter += tokens.count(after);
      if (after !== segment.text && (await stash.expandText(after)) !== segment.text) lossless = false;
    }
    last = { original: request, optimized: result.request };
  }
  const checks = last ? await checkEditedDefinitions(trajectory, last.original, last.optimized) : [];
  return { instance: trajectory.instance, requests: bodies.length, readTokensBefore, readTokensAfter, tokensBefore, tokensAfter, lossless, durationsMs, checks };
}

/**
 * For each file the submission changes: the definitions holding the changed lines (found in
 * the first read of the file that covers them), then, in every read of that file in the final
 * request, whether each such definition still stands in full.
 */
export async function checkEditedDefinitions(trajectory: Trajectory, original: ChatRequest, optimized: ChatRequest): Promise<EditedDefinitionCheck[]> {
  const optimizedText = new Map(findToolOutputs(optimized).map((segment) => [segment.key, segment.text]));
  const reads: { key: string; path: string; text: string; firstLine?: number }[] = [];
  for (const segment of findToolOutputs(original)) {
    const hint = segment.command === undefined ? undefined : readHintFromCommand(segment.command);
    if (hint) reads.push({ key: segment.key, path: normalizePath(hint.path), text: segment.text, firstLine: hint.firstLine });
  }
  const checks: EditedDefinitionCheck[] = [];
  for (const change of changedLines(trajectory.submission)) {
    const fileReads = reads.filter((read) => samePath(read.path, change.path));
    if (fileReads.length === 0) continue;
    // Definitions edited: innermost definitions holding a removed line, or both lines around an insertion,
    // in any read that shows those lines.
    const edited = new Set<string>();
    const wanted = [...change.removed.map((line) => [line, line] as const), ...change.insertedAfter.map((line) => [line, line + 1] as const)];
    for (const [first, last] of wanted) {
      for (const read of fileReads) {
        const parsed = await parseRead(read.text, read.path, read.firstLine);
        const numbers = parsed?.source.lineNumbers;
        if (!parsed || !numbers || numbers[0]! > first || numbers[numbers.length - 1]! < last) continue;
        const innermost = parsed.symbols.units.filter((unit) => unit.kind !== 'class' && numbers[unit.startRow]! <= first && numbers[Math.min(unit.endRow, numbers.length - 1)]! >= last).pop();
        if (innermost) edited.add(innermost.qualifiedName);
        break;
      }
    }
    for (const definition of edited) {
      let total = 0;
      let kept = 0;
      for (const read of fileReads) {
        const parsed = await parseRead(read.text, read.path, read.firstLine);
        const unit = parsed?.symbols.units.find((candidate) => candidate.qualifiedName === definition);
        if (!parsed || !unit) continue;
        total++;
        const full = parsed.source.lines.slice(parsed.source.codeStart + unit.startRow, parsed.source.codeStart + unit.endRow + 1).join('\n');
        if ((optimizedText.get(read.key) ?? '').includes(full)) kept++;
      }
      if (total > 0) checks.push({ instance: trajectory.instance, file: change.path, definition, reads: total, keptInFull: kept });
    }
  }
  return checks;
}

async function parseRead(text: string, filePath: string, firstLine: number | undefined): Promise<{ source: RecognizedSource; symbols: SourceSymbols } | undefined> {
  const recognition = recognizeSource(text, { path: filePath, firstLine });
  const source = 'source' in recognition ? recognition.source : undefined;
  if (!source) return undefined;
  const grammar = await grammars.load(source.language);
  const symbols = extractSymbols(grammar, source.code);
  return symbols ? { source, symbols } : undefined;
}

/** Throughput of parse + outline over real files of one language, in MB/s. */
async function throughput(language: LanguageSpec, files: readonly string[], budgetBytes: number): Promise<{ bytes: number; megabytesPerSecond: number; megabytesPerCpuSecond: number } | undefined> {
  if (files.length === 0) return undefined;
  const grammar = await grammars.load(language);
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  let bytes = 0;
  const started = performance.now();
  // CPU time as well as wall time: on a shared machine the wall clock mostly measures the queue.
  const cpuStarted = process.cpuUsage();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const recognition = recognizeSource(text, { path: file, firstLine: 1 });
    if (!('source' in recognition)) continue;
    const symbols = extractSymbols(grammar, recognition.source.code);
    if (symbols) outlineSource(recognition.source, symbols, () => false, stash, { minBodyLines: 5, kind: 'code_graph' });
    bytes += Buffer.byteLength(text);
    if (bytes >= budgetBytes) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return { bytes, megabytesPerSecond: bytes / 1e6 / seconds, megabytesPerCpuSecond: bytes / 1e6 / cpuSeconds };
}

/** Real files of each language under the sources cache, in a stable order. */
export function cachedSourceFiles(language: LanguageSpec, limit = 400): string[] {
  if (!fs.existsSync(SOURCES_CACHE)) return [];
  const found: string[] = [];
  const walk = (directory: string): void => {
    if (found.length >= limit) return;
    for (const entry of fs.readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= limit) return;
      const full = path.join(directory, entry.name);
      // The cache links the Python and Go standard libraries in: follow links.
      const isDirectory = entry.isDirectory() || (entry.isSymbolicLink() && fs.statSync(full).isDirectory());
      if (isDirectory) walk(full);
      else if (entry.isFile() && language.extensions.some((extension) => entry.name.endsWith(extension)) && !entry.name.endsWith('.d.ts')) found.push(full);
    }
  };
  walk(SOURCES_CACHE);
  return found;
}

export async function bench(): Promise<BenchReport> {
  const lines: string[] = [];
  const perLanguage: Record<string, number> = {};
  const throughputBytes = Number(process.env.HERALD_BENCH_THROUGHPUT_BYTES ?? 1_000_000);
  for (const language of throughputBytes > 0 ? LANGUAGES : []) {
    const result = await throughput(language, cachedSourceFiles(language), throughputBytes);
    if (!result) continue;
    perLanguage[language.id] = result.megabytesPerSecond;
    lines.push(`parse + outline ${language.id}: ${result.megabytesPerSecond.toFixed(2)} MB/s wall, ${result.megabytesPerCpuSecond.toFixed(2)} MB per CPU second, over ${(result.bytes / 1e6).toFixed(2)} MB`);
  }
  if (throughputBytes > 0 && Object.keys(perLanguage).length === 0) lines.push('throughput: no sources cached (run test/setup/fetchSources.sh)');

  const limit = Number(process.env.HERALD_BENCH_TRAJECTORIES ?? Infinity);
  const names = trajectoryNames().slice(0, limit);
  const tokens = new TokenCounter(200_000);
  const outcomes: TrajectoryOutcome[] = [];
  // Options to try other settings from the command line: HERALD_CODE_GRAPH_OPTIONS='{"calleeDepth":2}'.
  const options = JSON.parse(process.env.HERALD_CODE_GRAPH_OPTIONS ?? '{}') as Record<string, unknown>;
  // HERALD_BENCH_REWRITE_SHARE=0.4: the pipeline's cache-write rule as the default pipeline applies it.
  const share = Number(process.env.HERALD_BENCH_REWRITE_SHARE ?? 0);
  for (const name of names) outcomes.push(await evaluateTrajectory(loadTrajectory(name), tokens, options, share));
  const sum = (pick: (outcome: TrajectoryOutcome) => number): number => outcomes.reduce((total, outcome) => total + pick(outcome), 0);
  const durations = outcomes.flatMap((outcome) => [...outcome.durationsMs]);
  const checks = outcomes.flatMap((outcome) => [...outcome.checks]);
  const strictKept = checks.filter((check) => check.keptInFull === check.reads).length;
  const availableKept = checks.filter((check) => check.keptInFull > 0).length;
  const readPairs = checks.reduce((total, check) => total + check.reads, 0);
  const readPairsKept = checks.reduce((total, check) => total + check.keptInFull, 0);
  lines.push(
    `trajectories: ${outcomes.length}, requests: ${sum((outcome) => outcome.requests)}, cache-write share ${share} (0: every outline code_graph would make)`,
    `source-file reads in history: ${sum((outcome) => outcome.readTokensBefore)} → ${sum((outcome) => outcome.readTokensAfter)} tokens (saved ${percent(sum((outcome) => outcome.readTokensBefore - outcome.readTokensAfter), sum((outcome) => outcome.readTokensBefore))} of those reads)`,
    `all billed input: ${sum((outcome) => outcome.tokensBefore)} → ${sum((outcome) => outcome.tokensAfter)} (saved ${percent(sum((outcome) => outcome.tokensBefore - outcome.tokensAfter), sum((outcome) => outcome.tokensBefore))})`,
    `later-edited definitions: ${checks.length}; kept in full in every read: ${percent(strictKept, checks.length)}; in at least one read: ${percent(availableKept, checks.length)}; read copies kept: ${percent(readPairsKept, readPairs)}`,
    `lossless: ${outcomes.filter((outcome) => outcome.lossless).length}/${outcomes.length} trajectories`,
    `time per request (code_graph alone, pipeline included): median ${median(durations).toFixed(2)} ms, p95 ${quantile(durations, 0.95).toFixed(2)} ms, max ${Math.max(0, ...durations).toFixed(1)} ms`,
  );
  const missed = checks.filter((check) => check.keptInFull < check.reads);
  if (missed.length > 0) lines.push('elided in some read:', ...missed.slice(0, 20).map((check) => `  ${check.instance} ${check.file} ${check.definition} (${check.keptInFull}/${check.reads})`));
  return {
    title: 'code_graph: throughput, savings on file reads, edited definitions kept',
    lines,
    figures: { throughputMegabytesPerSecond: perLanguage, outcomes: outcomes.map(({ durationsMs: _durations, ...rest }) => rest), strictKept, availableKept, editedDefinitions: checks.length, medianMs: median(durations), p95Ms: quantile(durations, 0.95) },
  };
}

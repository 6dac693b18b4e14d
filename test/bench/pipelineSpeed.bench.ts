/**
 * The default pipeline's speed on a real 100k-token conversation (the long Claude Code session
 * in ../shared/data/clients/claude-code/spotter, cut at the request nearest 100k tokens):
 *
 * - cold: a first decision of the whole conversation (no memo, a fresh token counter and
 *   stash), in ms per 10k tokens. The process is warmed as a running host would be, on eight
 *   requests spread through the other session (compiled code, loaded grammars, o200k's piece
 *   table). Each run decides a fresh copy of the conversation whose texts differ from every
 *   other run's by trailing spaces, so nothing Herald remembers per object or per text (hashes,
 *   formats, terms, spans) carries from one run to the next: every run is as cold as a
 *   conversation the process has never seen, but for the token counter's piece table (words,
 *   paths, indentation), which the copies share; emptying every other process-wide memo between
 *   runs (formats, terms, the census, hash links) changed nothing measurable, the piece table
 *   about a tenth. So each run also decides a copy with that table emptied and filled again from
 *   the warm-up session only (and, for a checkout whose counter still handed new pieces to
 *   gpt-tokenizer, gpt-tokenizer's own cache of merged pieces emptied too): the cold decision of
 *   a conversation never seen;
 * - warm: the next turn once the prefix is decided (the same pipeline, one reply and its tool
 *   results more), in ms.
 *
 * Goals: warm ≤ 10 ms median, cold ≤ 5 ms per 10k tokens, judged on the code as it ships (the
 * core bundled as the build bundles it, see shippedCore.ts); the same code run from source
 * through tsx is measured too, for comparison with figures taken that way. With
 * HERALD_BENCH_BASELINE_TREE=<another checkout with node_modules> that checkout's core is bundled
 * and measured the same way, and the cold ratio is given run by run (paired), for copies and for
 * decisions with the pieces new. The forms alternate
 * run by run. Medians over HERALD_BENCH_SPEED_RUNS runs (default 7). The machine is shared, so
 * next to the wall-clock time each run's CPU time is given (the process's own user and system
 * time: what the work costs, without the time spent waiting for a core another job holds).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { ChatRequest } from '../../src/core/chat/types';
import type { Pipeline } from '../../src/core/pipeline';
import { TokenCounter } from '../../src/core/tokens';
import { countTokens as gptTokenizerCount } from 'gpt-tokenizer/encoding/o200k_base';
import { claudeCodeSpotterMainFiles, loadClaudeCodeSession } from '../support/clients';
import { hasSharedData } from '../support/sharedData';
import type { BenchReport } from './run';
import { bundleCore, type PipelineCore } from './shippedCore';
import { median, quantile } from './stats';

const TARGET_TOKENS = 100_000;

function newPipeline(core: PipelineCore): { pipeline: Pipeline } {
  const stash = new core.Stash({ store: new core.MemoryBlobStore(), key: new Uint8Array(32) });
  return { pipeline: new core.Pipeline(core.createStrategies(), {}, { stash, tokens: new core.TokenCounter(200_000) }) };
}

/** How many requests of the other session warm the process before the runs. */
const WARMUP_REQUESTS = 8;

/** The request nearest the target size, the one after it (the next turn), and the warm-up requests. */
export function conversation(): { warmups: ChatRequest[]; request: ChatRequest; next: ChatRequest; tokens: number } {
  const sessions = claudeCodeSpotterMainFiles().map(loadClaudeCodeSession);
  const counter = new TokenCounter(200_000);
  const main = sessions[0]!.requests.filter((entry) => !entry.summarization);
  let best = 0;
  main.forEach((entry, index) => {
    if (index + 1 >= main.length) return;
    if (Math.abs(counter.countRequest(entry.request) - TARGET_TOKENS) < Math.abs(counter.countRequest(main[best]!.request) - TARGET_TOKENS)) best = index;
  });
  const other = sessions[1]!.requests.filter((entry) => !entry.summarization);
  const warmups = Array.from({ length: WARMUP_REQUESTS }, (_, index) => other[Math.floor(((index + 1) * (other.length - 1)) / (WARMUP_REQUESTS + 1))]!.request);
  return { warmups, request: main[best]!.request, next: main[best + 1]!.request, tokens: counter.countRequest(main[best]!.request) };
}

/**
 * A copy of `request` made of new objects, every text (a text part's, a tool result's) ending
 * in `spaces` more spaces: the same work for every strategy, but no memo keyed by an object or
 * a text has seen it. The spaces are added before the JSON text is parsed, so every string is
 * flat, as in a request parsed off the wire: a string made by `+` (a rope in V8) reads more
 * slowly (a cold decision of ropes took 1.02 to 1.04 times as long, alternated in one process).
 */
export function freshCopy(request: ChatRequest, spaces: number): ChatRequest {
  const tail = ' '.repeat(spaces);
  return JSON.parse(JSON.stringify(request, (key, value: unknown) => (key === 'text' && typeof value === 'string' ? value + tail : value))) as ChatRequest;
}

/** One form's times over one process's runs. */
export interface FormTimes {
  readonly cold: number[];
  /** Cold decisions after the piece tables were emptied and filled again from the other session only (see measureForm); empty for a core without forgetPieces. */
  readonly coldNewPieces: number[];
  readonly warm: number[];
  readonly coldCpu: number[];
  readonly warmCpu: number[];
  replayed: number;
  tokens: number;
  messages: number;
  nextMessages: number;
  /** The machine reference's median in this process, in ms (see {@link machineReferenceMs}). */
  referenceMs: number;
}

/**
 * The same fixed work in every process, none of it Herald's: gpt-tokenizer counting the warm-up
 * requests' text (about 200 KB), the median of seven. The machine's speed moves from minute to
 * minute on this shared VM; a process whose decisions ran slow because the machine did shows it
 * here too, and one that ran slow on its own does not. Taken after the runs, so that
 * gpt-tokenizer's own memo of pieces cannot speed up the pieces a cold decision hands it.
 */
function machineReferenceMs(warmups: readonly ChatRequest[]): number {
  const text = warmups.map((request) => JSON.stringify(request.messages)).join('\n').slice(0, 200_000);
  const times: number[] = [];
  for (let round = 0; round < 7; round++) {
    const started = performance.now();
    gptTokenizerCount(text, { disallowedSpecial: new Set() });
    times.push(performance.now() - started);
  }
  return median(times);
}

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/**
 * Empties `core`'s piece tables (and gpt-tokenizer's cache of merged pieces, where its counter
 * uses one), then fills them again from the warm-up requests only: the state of a host that has
 * served that other conversation. False for a core without forgetPieces.
 */
function forgetPiecesOf(core: PipelineCore, warmups: readonly ChatRequest[]): boolean {
  if (!core.forgetPieces) return false;
  core.forgetPieces();
  core.forgetMergeCache?.();
  const refill = new core.TokenCounter(200_000);
  for (const warmup of warmups) refill.countRequest(warmup);
  return true;
}

/**
 * In this process: `runs` cold decisions, each of a fresh copy followed by the next turn on the
 * same pipeline, with `core`'s code, after the warm-up.
 */
export async function measureForm(core: PipelineCore, runs: number): Promise<FormTimes> {
  const { warmups, request, next, tokens } = conversation();
  // JIT, grammars and tokenizer tables loaded on another conversation first, as in a running host.
  for (const warmup of warmups) await newPipeline(core).pipeline.run(warmup);
  const times: FormTimes = { cold: [], coldNewPieces: [], warm: [], coldCpu: [], warmCpu: [], replayed: 0, tokens, messages: request.messages.length, nextMessages: next.messages.length, referenceMs: 0 };
  for (let run = 0; run < runs; run++) {
    if (core.forgetPieces) {
      // The copies share their pieces (words, paths, indentation): after the first run the token
      // counter's piece table holds them all, which a conversation never seen does not find. So
      // each run first decides a copy with the table emptied and filled again from the warm-up
      // session only (untimed), as a host that has served that other conversation has it.
      forgetPiecesOf(core, warmups);
      times.coldNewPieces.push((await newPipeline(core).pipeline.run(freshCopy(request, 2 * run + 2))).durationMs);
    }
    const { pipeline } = newPipeline(core);
    const [fresh, freshNext] = [freshCopy(request, 2 * run + 1), freshCopy(next, 2 * run + 1)];
    let started = process.cpuUsage();
    const first = await pipeline.run(fresh);
    times.coldCpu.push(cpuMs(started));
    times.cold.push(first.durationMs);
    started = process.cpuUsage();
    const second = await pipeline.run(freshNext);
    times.warmCpu.push(cpuMs(started));
    times.warm.push(second.durationMs);
    times.replayed = second.replayedMessages;
  }
  times.referenceMs = machineReferenceMs(warmups);
  return times;
}

/** Paired times and ratios (`second` over `first`, per pair) of one kind of decision. */
export interface PairedTimes {
  readonly first: number[];
  readonly second: number[];
  readonly ratios: number[];
}

/**
 * In this process: `pairs` cold decisions with each of two cores, alternated decision by decision
 * (which goes first swaps each pair), both warmed alike first; the ratio of `second` to `first`
 * per pair. The machine's speed moves from minute to minute and from process to process; two
 * decisions in a row in one process see nearly the same machine, so this ratio holds steady where
 * the absolute figures do not. `copies` decides fresh copies (the piece tables kept from run to
 * run); `newPieces` empties both cores' piece tables before each decision and fills them from the
 * warm-up session (see {@link forgetPiecesOf}), when both cores can.
 */
export async function measurePaired(first: PipelineCore, second: PipelineCore, pairs: number): Promise<{ copies: PairedTimes; newPieces?: PairedTimes }> {
  const { warmups, request } = conversation();
  for (const core of [first, second]) for (const warmup of warmups) await newPipeline(core).pipeline.run(warmup);
  const copies: PairedTimes = { first: [], second: [], ratios: [] };
  const newPieces: PairedTimes | undefined = first.forgetPieces && second.forgetPieces ? { first: [], second: [], ratios: [] } : undefined;
  let spaces = 1;
  for (let pair = 0; pair < pairs; pair++) {
    for (const [times, forget] of [[copies, false], ...(newPieces ? [[newPieces, true] as const] : [])] as const) {
      const order: ['first' | 'second', PipelineCore][] = pair % 2 === 0 ? [['first', first], ['second', second]] : [['second', second], ['first', first]];
      const measured: Record<string, number> = {};
      for (const [key, core] of order) {
        if (forget) forgetPiecesOf(core, warmups);
        const { pipeline } = newPipeline(core);
        const result = await pipeline.run(freshCopy(request, spaces++));
        measured[key] = result.durationMs;
        times[key].push(result.durationMs);
      }
      times.ratios.push(measured.second! / measured.first!);
    }
  }
  return newPieces ? { copies, newPieces } : { copies };
}

/** A form to measure: the checkout, and whether as bundled (shipped) or from source. */
export interface FormSpec {
  readonly label: string;
  readonly tree: string;
  readonly bundle?: string;
}

const THIS_TREE = path.resolve(__dirname, '..', '..');
/** Cold decisions of each core in a paired process. */
const PAIRS = 15;

/** One process's runs (pipelineSpeedRuns.ts: one form, or two paired), read back from its output. */
function runChild<T>(label: string, argument: unknown): T {
  const script = path.join(__dirname, 'pipelineSpeedRuns.ts');
  const child = spawnSync(process.execPath, ['--import', 'tsx', script, JSON.stringify(argument)], { cwd: THIS_TREE, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const line = child.stdout.split('\n').find((text) => text.startsWith('{'));
  if (child.status !== 0 || line === undefined) throw new Error(`Herald bench: the runs of ${label} failed (exit ${child.status}): ${child.stderr.slice(-2_000)}`);
  return JSON.parse(line) as T;
}

function runForm(spec: FormSpec, runs: number): FormTimes {
  return runChild<FormTimes>(spec.label, { spec, runs });
}

/** Cold decisions of the baseline's bundle and this one's, alternated in one process: this one's time over the baseline's, per pair. */
function runPaired(baseline: FormSpec, shipped: FormSpec, pairs: number): { copies: PairedTimes; newPieces?: PairedTimes } {
  return runChild<{ copies: PairedTimes; newPieces?: PairedTimes }>(`${baseline.label} paired with ${shipped.label}`, { pair: [baseline, shipped], runs: pairs });
}

export async function bench(): Promise<BenchReport> {
  if (!hasSharedData()) return { title: 'Pipeline speed on a 100k-token conversation', lines: ['skipped: ../shared/data is absent'] };
  const runs = Number(process.env.HERALD_BENCH_SPEED_RUNS ?? 7);
  const rounds = Number(process.env.HERALD_BENCH_SPEED_ROUNDS ?? 3);
  const baselineTree = process.env.HERALD_BENCH_BASELINE_TREE;
  const forms: FormSpec[] = [
    { label: 'shipped', tree: THIS_TREE, bundle: await bundleCore(THIS_TREE) },
    ...(baselineTree ? [{ label: `baseline ${baselineTree}, shipped`, tree: path.resolve(baselineTree), bundle: await bundleCore(baselineTree) }] : []),
    { label: 'from source (tsx)', tree: THIS_TREE },
  ];
  // One process per form and round, the forms alternated, so the machine's moods fall on each alike
  // and no form's heap or compiled code is in another's way.
  const measured = forms.map((): FormTimes[] => []);
  const pairedRatios: number[] = [];
  const pairedNewPiecesRatios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [index, spec] of forms.entries()) measured[index]!.push(runForm(spec, runs));
    if (baselineTree) {
      const paired = runPaired(forms[1]!, forms[0]!, PAIRS);
      pairedRatios.push(median(paired.copies.ratios));
      if (paired.newPieces) pairedNewPiecesRatios.push(median(paired.newPieces.ratios));
    }
  }
  const first = measured[0]![0]!;
  const per10k = (ms: number): number => (ms * 10_000) / first.tokens;
  const all = (sets: FormTimes[], key: 'cold' | 'coldNewPieces' | 'warm' | 'coldCpu' | 'warmCpu'): number[] => sets.flatMap((set) => set[key]);
  const roundMedians = (sets: FormTimes[]): string => sets.map((set) => per10k(median(set.cold)).toFixed(2)).join(', ');
  const describe = (spec: FormSpec, sets: FormTimes[]): string[] => [
    `${spec.label}: cold decision median ${median(all(sets, 'cold')).toFixed(1)} ms (${per10k(median(all(sets, 'cold'))).toFixed(2)} ms per 10k tokens; goal ≤ 5; by process ${roundMedians(sets)}), p95 ${quantile(all(sets, 'cold'), 0.95).toFixed(1)} ms; CPU ${per10k(median(all(sets, 'coldCpu'))).toFixed(2)} per 10k tokens`,
    all(sets, 'coldNewPieces').length > 0
      ? `${spec.label}: cold decision, the conversation's pieces new to the token counter (as a conversation never seen finds them): median ${median(all(sets, 'coldNewPieces')).toFixed(1)} ms (${per10k(median(all(sets, 'coldNewPieces'))).toFixed(2)} ms per 10k tokens; by process ${sets.map((set) => per10k(median(set.coldNewPieces)).toFixed(2)).join(', ')})`
      : `${spec.label}: no forgetPieces in this checkout, so no cold decision with the pieces new`,
    `${spec.label}: each process's first such decision (code compiled on the other session only) ${sets.map((set) => per10k((set.coldNewPieces[0] ?? set.cold[0])!).toFixed(2)).join(', ')} ms per 10k tokens`,
    `${spec.label}: warm turn median ${median(all(sets, 'warm')).toFixed(1)} ms (goal ≤ 10), p95 ${quantile(all(sets, 'warm'), 0.95).toFixed(1)} ms; CPU ${median(all(sets, 'warmCpu')).toFixed(1)} ms`,
  ];
  const lines = [
    `conversation: ${first.tokens} tokens, ${first.messages} messages; next turn ${first.nextMessages} messages (${first.replayed} replayed from the memo); ${rounds} processes of ${runs} runs for each form, alternated`,
    ...forms.flatMap((spec, index) => describe(spec, measured[index]!)),
    `machine reference (gpt-tokenizer on a fixed 200 KB text, the same work in every process; slower means a slower machine), by process: ${forms.map((spec, index) => `${spec.label} ${measured[index]!.map((set) => set.referenceMs.toFixed(1)).join(', ')}`).join('; ')} ms`,
  ];
  if (baselineTree) {
    const ratios = measured[0]!.map((set, round) => median(set.cold) / median(measured[1]![round]!.cold));
    lines.push(`shipped against the baseline, cold, process by process: ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')} (median ${median(ratios).toFixed(2)})`);
    lines.push(`shipped against the baseline, cold, paired in one process (${PAIRS} pairs each, the median ratio per process): ${pairedRatios.map((ratio) => ratio.toFixed(3)).join(', ')} (the steadier figure)`);
    if (pairedNewPiecesRatios.length > 0) lines.push(`shipped against the baseline, cold with the pieces new, paired in one process (${PAIRS} pairs each, the median ratio per process): ${pairedNewPiecesRatios.map((ratio) => ratio.toFixed(3)).join(', ')}`);
  }
  const shipped = measured[0]!;
  return {
    title: 'Pipeline speed on a 100k-token conversation',
    lines,
    figures: {
      tokens: first.tokens,
      messages: first.messages,
      runs,
      rounds,
      coldMs: all(shipped, 'cold'),
      warmMs: all(shipped, 'warm'),
      coldCpuMs: all(shipped, 'coldCpu'),
      warmCpuMs: all(shipped, 'warmCpu'),
      coldMedianMs: median(all(shipped, 'cold')),
      coldNewPiecesMs: all(shipped, 'coldNewPieces'),
      coldNewPiecesPer10kMs: per10k(median(all(shipped, 'coldNewPieces'))),
      coldPer10kMs: per10k(median(all(shipped, 'cold'))),
      warmMedianMs: median(all(shipped, 'warm')),
      coldCpuPer10kMs: per10k(median(all(shipped, 'coldCpu'))),
      warmCpuMedianMs: median(all(shipped, 'warmCpu')),
      ...(baselineTree ? { pairedRatios, pairedNewPiecesRatios } : {}),
      referenceMs: forms.map((spec, index) => ({ form: spec.label, byProcess: measured[index]!.map((set) => set.referenceMs), coldPer10kByProcess: measured[index]!.map((set) => per10k(median(set.cold))) })),
      forms: Object.fromEntries(forms.map((spec, index) => [spec.label, { coldPer10kMs: per10k(median(all(measured[index]!, 'cold'))), coldNewPiecesPer10kMs: per10k(median(all(measured[index]!, 'coldNewPieces'))), warmMedianMs: median(all(measured[index]!, 'warm')) }])),
    },
  };
}

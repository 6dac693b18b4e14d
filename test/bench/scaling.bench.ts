/**
 * How the default pipeline's cost grows with the request (issue 26): the same conversation shape
 * (test/support/stressConversation.ts: tool calls whose outputs are logs, JSON, long single
 * lines, control characters, fake markers, source, grep hits, test runs, listings and diffs) at
 * 10k, 100k, 1M and 10M tokens.
 *
 * - cold: the first decision of a conversation the process has not seen (a fresh pipeline, memo,
 *   stash and token counter, and a conversation of its own seed, so no memo of an earlier run
 *   helps; the process warmed up on another one first);
 * - warm: the next turn of the same session (one reply and its tool result more).
 *
 * Each size reports the median time per 10k tokens (wall and CPU: the machine is shared, so the
 * CPU time is the steadier figure) and the ratio to the size before; the goal is 10M within 1.5×
 * of 100k, cold. No deadline applies to these runs: they measure the cost itself.
 *
 * Then the deadline: the shape at full size (about 45 kB a message: 200 messages are
 * 9.7 MB) from 200 to 6,000 messages through the default configuration, each of which must
 * finish within the deadline or go out as it came within it.
 *
 * HERALD_BENCH_SCALING_RUNS (default 5; 3 at 10M), HERALD_BENCH_SCALING_SIZES (default
 * 10k,100k,1M,10M), HERALD_BENCH_SCALING_DEADLINE_COUNTS (default 200,600,1100,1600,3000,6000;
 * "none" skips them), HERALD_BENCH_SCALING_DEADLINE_RUNS (default 1: runs of each count, the
 * median reported), HERALD_BENCH_SCALING_DEADLINE_MS ("off" runs the counts with no deadline, to
 * set the work's own cost against the table), HERALD_BENCH_BASELINE_TREE (another checkout, e.g. main's in a second
 * worktree: its pipeline runs in alternation with this one, the same conversations, so the two
 * are compared in the same minutes).
 */
import * as path from 'node:path';
import type { ChatRequest } from '../../src/core/chat/types';
import * as chatModule from '../../src/core/chat';
import * as pipelineModule from '../../src/core/pipeline';
import * as stashModule from '../../src/core/stash';
import * as strategiesModule from '../../src/core/strategies';
import * as tokensModule from '../../src/core/tokens';
import { stressConversation } from '../support/stressConversation';
import type { BenchReport } from './run';
import { median } from './stats';

/** What the bench needs of a checkout's core: the same modules, from this tree or the baseline's. */
interface Core {
  readonly label: string;
  readonly parseRequest: typeof chatModule.parseRequest;
  readonly Pipeline: typeof pipelineModule.Pipeline;
  readonly MemoryBlobStore: typeof stashModule.MemoryBlobStore;
  readonly Stash: typeof stashModule.Stash;
  readonly createStrategies: typeof strategiesModule.createStrategies;
  readonly TokenCounter: typeof tokensModule.TokenCounter;
}

const THIS_TREE: Core = { label: 'this tree', ...chatModule, ...pipelineModule, ...stashModule, ...strategiesModule, ...tokensModule };

async function baselineCore(tree: string): Promise<Core> {
  const load = async (relative: string): Promise<unknown> => import(path.resolve(tree, relative));
  const chat = (await load('src/core/chat')) as typeof chatModule;
  const pipeline = (await load('src/core/pipeline')) as typeof pipelineModule;
  const stash = (await load('src/core/stash')) as typeof stashModule;
  const strategies = (await load('src/core/strategies')) as typeof strategiesModule;
  const tokens = (await load('src/core/tokens')) as typeof tokensModule;
  return { label: `baseline ${tree}`, parseRequest: chat.parseRequest, Pipeline: pipeline.Pipeline, MemoryBlobStore: stash.MemoryBlobStore, Stash: stash.Stash, createStrategies: strategies.createStrategies, TokenCounter: tokens.TokenCounter };
}

/** Output lengths of the scaling shape: about a thousand tokens a message, so 10k tokens is a short session and 10M a long one. */
const SCALING_OUTPUT_SCALE = 0.05;
/** Tokens a message of the scaling shape carries on average (measured on the first 400 messages; the reports give the real counts). */
const SIZES: Readonly<Record<string, number>> = { '10k': 10_000, '100k': 100_000, '1M': 1_000_000, '10M': 10_000_000 };

interface Measure {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly tokens: number;
}

function newPipeline(core: Core, deadlineMs?: number): pipelineModule.Pipeline {
  const stash = new core.Stash({ store: new core.MemoryBlobStore(), key: new Uint8Array(32) });
  // No deadline and no strategy limit in the scaling runs: they measure what the work costs.
  const config = deadlineMs === undefined ? { timeLimitMs: 1e9, deadlineMs: 1e9 } : {};
  return new core.Pipeline(core.createStrategies(), config, { stash, tokens: new core.TokenCounter(200_000) });
}

async function measured(pipeline: pipelineModule.Pipeline, request: ChatRequest): Promise<Measure & { result: pipelineModule.PipelineResult }> {
  const cpu = process.cpuUsage();
  const result = await pipeline.run(request);
  const used = process.cpuUsage(cpu);
  return { wallMs: result.durationMs, cpuMs: (used.user + used.system) / 1000, tokens: result.tokensBefore, result };
}

/** Messages of the scaling shape that make about `tokens` tokens. */
function messagesFor(tokens: number, tokensPerMessage: number): number {
  return Math.max(4, Math.round(tokens / tokensPerMessage));
}

interface SizeRow {
  readonly size: string;
  readonly messages: number;
  readonly tokens: number;
  readonly coldWallPer10k: number;
  readonly coldCpuPer10k: number;
  readonly warmWallPer10k: number;
  readonly warmCpuPer10k: number;
  readonly coldWallMs: number;
  readonly warmWallMs: number;
}

async function scalingRows(cores: readonly Core[], sizes: readonly string[], runs: (size: string) => number, tokensPerMessage: number): Promise<Map<string, SizeRow[]>> {
  const rows = new Map<string, SizeRow[]>(cores.map((core) => [core.label, []]));
  for (const size of sizes) {
    const messages = messagesFor(SIZES[size]!, tokensPerMessage);
    const samples = new Map<string, { cold: Measure[]; warm: Measure[] }>(cores.map((core) => [core.label, { cold: [], warm: [] }]));
    for (let run = 0; run < runs(size); run++) {
      // A conversation of its own per run: memos kept by the process from an earlier run do not make a later one warm.
      const seed = 1000 + run;
      for (const core of cores) {
        const request = core.parseRequest(stressConversation({ messages, outputScale: SCALING_OUTPUT_SCALE, seed }));
        const next = core.parseRequest(stressConversation({ messages: messages + 2, outputScale: SCALING_OUTPUT_SCALE, seed }));
        const pipeline = newPipeline(core);
        const cold = await measured(pipeline, request);
        const warm = await measured(pipeline, next);
        samples.get(core.label)!.cold.push(cold);
        samples.get(core.label)!.warm.push({ ...warm, tokens: cold.tokens });
      }
    }
    for (const core of cores) {
      const { cold, warm } = samples.get(core.label)!;
      const tokens = median(cold.map((entry) => entry.tokens));
      const per10k = (list: Measure[], field: 'wallMs' | 'cpuMs'): number => median(list.map((entry) => (entry[field] * 10_000) / entry.tokens));
      rows.get(core.label)!.push({
        size, messages, tokens,
        coldWallPer10k: per10k(cold, 'wallMs'), coldCpuPer10k: per10k(cold, 'cpuMs'),
        warmWallPer10k: per10k(warm, 'wallMs'), warmCpuPer10k: per10k(warm, 'cpuMs'),
        coldWallMs: median(cold.map((entry) => entry.wallMs)), warmWallMs: median(warm.map((entry) => entry.wallMs)),
      });
    }
  }
  return rows;
}

interface DeadlineRow {
  readonly messages: number;
  readonly megabytes: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly outcome: string;
  readonly withinDeadline: boolean;
}

/** The shape at full size through the default configuration (its deadline included). */
async function deadlineRows(counts: readonly number[], runs: number, deadlineOff: boolean): Promise<{ deadlineMs: number; rows: DeadlineRow[] }> {
  const rows: DeadlineRow[] = [];
  const deadlineMs = deadlineOff ? Infinity : pipelineModule.DEFAULT_PIPELINE_DEADLINE_MS;
  for (const messages of counts) {
    const body = stressConversation({ messages, seed: 26 });
    const megabytes = JSON.stringify(body).length / 1e6;
    const times: number[] = [];
    const cpuTimes: number[] = [];
    const outcomes = new Set<string>();
    for (let run = 0; run < runs; run++) {
      // Parsed afresh each run: a fresh pipeline, and no memo of the parsed objects from the run before.
      const request = THIS_TREE.parseRequest(body);
      const pipeline = newPipeline(THIS_TREE, deadlineOff ? undefined : deadlineMs);
      const { result, wallMs, cpuMs } = await measured(pipeline, request);
      times.push(wallMs);
      cpuTimes.push(cpuMs);
      outcomes.add(result.restored?.startsWith(pipelineModule.PIPELINE_DEADLINE_ACTION)
        ? `failed open (${result.request === request ? 'the request as it came' : 'NOT the request as it came'})`
        : `finished (${result.tokensBefore} → ${result.tokensAfter} tokens)`);
    }
    const wallMs = median(times);
    rows.push({ messages, megabytes, wallMs, cpuMs: median(cpuTimes), outcome: [...outcomes].join('; '), withinDeadline: Math.max(...times) <= deadlineMs * 1.05 });
  }
  return { deadlineMs, rows };
}

export async function bench(): Promise<BenchReport> {
  const title = 'Scaling: time per 10k tokens from 10k to 10M tokens, cold and warm, and the deadline';
  const sizes = (process.env.HERALD_BENCH_SCALING_SIZES ?? '10k,100k,1M,10M').split(',').map((size) => size.trim()).filter((size) => size in SIZES);
  const defaultRuns = Number(process.env.HERALD_BENCH_SCALING_RUNS ?? 5);
  const runs = (size: string): number => (process.env.HERALD_BENCH_SCALING_RUNS === undefined && size === '10M' ? 3 : defaultRuns);
  const countsSetting = process.env.HERALD_BENCH_SCALING_DEADLINE_COUNTS ?? '200,600,1100,1600,3000,6000';
  const counts = countsSetting === 'none' ? [] : countsSetting.split(',').map(Number).filter((count) => count > 0);
  const countRuns = Math.max(1, Number(process.env.HERALD_BENCH_SCALING_DEADLINE_RUNS ?? 1));
  const deadlineOff = process.env.HERALD_BENCH_SCALING_DEADLINE_MS === 'off';
  const cores = [THIS_TREE, ...(process.env.HERALD_BENCH_BASELINE_TREE ? [await baselineCore(process.env.HERALD_BENCH_BASELINE_TREE)] : [])];

  // Tokens a message of the shape carries, and a warm-up of the process (JIT, tables) on another seed.
  const sample = THIS_TREE.parseRequest(stressConversation({ messages: 400, outputScale: SCALING_OUTPUT_SCALE, seed: 7 }));
  const tokensPerMessage = new THIS_TREE.TokenCounter().countRequest(sample) / sample.messages.length;
  for (const core of cores) await newPipeline(core).run(core.parseRequest(stressConversation({ messages: 400, outputScale: SCALING_OUTPUT_SCALE, seed: 7 })));

  const lines: string[] = [`shape: test/support/stressConversation.ts at output scale ${SCALING_OUTPUT_SCALE} (${tokensPerMessage.toFixed(0)} tokens a message); medians of ${defaultRuns} runs (3 at 10M unless HERALD_BENCH_SCALING_RUNS is set)`];
  const rows = await scalingRows(cores, sizes, runs, tokensPerMessage);
  const figures: Record<string, unknown> = { tokensPerMessage, sizes: Object.fromEntries(rows) };
  for (const [label, list] of rows) {
    lines.push(`${label}:`, '| size | messages | tokens | cold ms / 10k (wall · CPU) | × previous (CPU) | warm ms / 10k of history (wall · CPU) | cold · warm wall ms |', '|---|---|---|---|---|---|---|');
    list.forEach((row, index) => {
      const previous = index > 0 ? list[index - 1]! : undefined;
      const ratio = previous ? `${(row.coldCpuPer10k / previous.coldCpuPer10k).toFixed(2)}×` : '';
      lines.push(`| ${row.size} | ${row.messages} | ${row.tokens} | ${row.coldWallPer10k.toFixed(2)} · ${row.coldCpuPer10k.toFixed(2)} | ${ratio} | ${row.warmWallPer10k.toFixed(3)} · ${row.warmCpuPer10k.toFixed(3)} | ${row.coldWallMs.toFixed(0)} · ${row.warmWallMs.toFixed(0)} |`);
    });
    const at100k = list.find((row) => row.size === '100k');
    const at10M = list.find((row) => row.size === '10M');
    if (at100k && at10M) {
      const cpuRatio = at10M.coldCpuPer10k / at100k.coldCpuPer10k;
      const wallRatio = at10M.coldWallPer10k / at100k.coldWallPer10k;
      lines.push(`10M against 100k, cold, per 10k tokens: CPU ${cpuRatio.toFixed(2)}×, wall ${wallRatio.toFixed(2)}× (goal ≤ 1.5×)`);
      figures[`${label} ratio10MTo100k`] = { cpu: cpuRatio, wall: wallRatio };
    }
  }
  if (counts.length > 0) {
    const { deadlineMs, rows: deadline } = await deadlineRows(counts, countRuns, deadlineOff);
    const setting = deadlineOff ? 'no deadline (the work\'s own cost)' : `default configuration (deadline ${deadlineMs} ms)`;
    lines.push(`the issue's shape at full size, ${setting}, median of ${countRuns} run(s):`, '| messages | request | time (wall · CPU) | outcome | within the deadline |', '|---|---|---|---|---|');
    for (const row of deadline) lines.push(`| ${row.messages} | ${row.megabytes.toFixed(1)} MB | ${(row.wallMs / 1000).toFixed(2)} s · ${(row.cpuMs / 1000).toFixed(2)} s | ${row.outcome} | ${row.withinDeadline ? 'yes' : 'NO'} |`);
    figures.deadline = { deadlineMs, rows: deadline };
  }
  return { title, lines, figures };
}

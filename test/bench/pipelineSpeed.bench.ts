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
 *   conversation the process has never seen;
 * - warm: the next turn once the prefix is decided (the same pipeline, one reply and its tool
 *   results more), in ms.
 *
 * Goals: warm ≤ 10 ms median, cold ≤ 5 ms per 10k tokens. Medians over HERALD_BENCH_SPEED_RUNS
 * runs (default 7). The machine is shared, so next to the wall-clock time each run's CPU time is
 * given (the process's own user and system time: what the work costs, without the time spent
 * waiting for a core another job holds).
 */
import type { ChatRequest } from '../../src/core/chat/types';
import { Pipeline } from '../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { createStrategies } from '../../src/core/strategies';
import { TokenCounter } from '../../src/core/tokens';
import { claudeCodeSpotterMainFiles, loadClaudeCodeSession } from '../support/clients';
import { hasSharedData } from '../support/sharedData';
import type { BenchReport } from './run';
import { median, quantile } from './stats';

const TARGET_TOKENS = 100_000;

function newPipeline(tokens = new TokenCounter(200_000)): { pipeline: Pipeline; tokens: TokenCounter } {
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  return { pipeline: new Pipeline(createStrategies(), {}, { stash, tokens }), tokens };
}

/** How many requests of the other session warm the process before the runs. */
const WARMUP_REQUESTS = 8;

/** The request nearest the target size, the one after it (the next turn), and the warm-up requests. */
function conversation(): { warmups: ChatRequest[]; request: ChatRequest; next: ChatRequest; tokens: number } {
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
 * flat, as in a request parsed off the wire: a string made by `+` (a rope in V8) was read by
 * every scan at up to twice the cost, which no real request pays.
 */
function freshCopy(request: ChatRequest, spaces: number): ChatRequest {
  const tail = ' '.repeat(spaces);
  return JSON.parse(JSON.stringify(request, (key, value: unknown) => (key === 'text' && typeof value === 'string' ? value + tail : value))) as ChatRequest;
}

export async function bench(): Promise<BenchReport> {
  if (!hasSharedData()) return { title: 'Pipeline speed on a 100k-token conversation', lines: ['skipped: ../shared/data is absent'] };
  const runs = Number(process.env.HERALD_BENCH_SPEED_RUNS ?? 7);
  const { warmups, request, next, tokens } = conversation();
  // JIT, grammars and tokenizer tables loaded on another conversation first, as in a running host.
  for (const warmup of warmups) await newPipeline().pipeline.run(warmup);
  const cold: number[] = [];
  const warm: number[] = [];
  const coldCpu: number[] = [];
  const warmCpu: number[] = [];
  let replayed = 0;
  const cpuMs = (since: NodeJS.CpuUsage): number => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  for (let run = 0; run < runs; run++) {
    const { pipeline } = newPipeline();
    const [fresh, freshNext] = [freshCopy(request, run + 1), freshCopy(next, run + 1)];
    let started = process.cpuUsage();
    const first = await pipeline.run(fresh);
    coldCpu.push(cpuMs(started));
    cold.push(first.durationMs);
    started = process.cpuUsage();
    const second = await pipeline.run(freshNext);
    warmCpu.push(cpuMs(started));
    warm.push(second.durationMs);
    replayed = second.replayedMessages;
  }
  const coldPer10k = cold.map((ms) => (ms * 10_000) / tokens);
  const coldCpuPer10k = coldCpu.map((ms) => (ms * 10_000) / tokens);
  const lines = [
    `conversation: ${tokens} tokens, ${request.messages.length} messages; next turn ${next.messages.length} messages (${replayed} replayed from the memo)`,
    `cold decision: median ${median(cold).toFixed(1)} ms (${median(coldPer10k).toFixed(2)} ms per 10k tokens; goal ≤ 5), p95 ${quantile(cold, 0.95).toFixed(1)} ms, over ${runs} runs; CPU ${median(coldCpu).toFixed(1)} ms (${median(coldCpuPer10k).toFixed(2)} per 10k tokens)`,
    `warm turn: median ${median(warm).toFixed(1)} ms (goal ≤ 10), p95 ${quantile(warm, 0.95).toFixed(1)} ms; CPU ${median(warmCpu).toFixed(1)} ms`,
  ];
  return {
    title: 'Pipeline speed on a 100k-token conversation',
    lines,
    figures: { tokens, messages: request.messages.length, runs, coldMs: cold, warmMs: warm, coldCpuMs: coldCpu, warmCpuMs: warmCpu, coldMedianMs: median(cold), coldPer10kMs: median(coldPer10k), warmMedianMs: median(warm), coldCpuPer10kMs: median(coldCpuPer10k), warmCpuMedianMs: median(warmCpu) },
  };
}

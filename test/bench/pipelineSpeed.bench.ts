/**
 * The default pipeline's speed on a real 100k-token conversation (the long Claude Code session
 * in ../shared/data/clients/claude-code/spotter, cut at the request nearest 100k tokens):
 *
 * - cold: a first decision of the whole conversation (no memo, a fresh token counter and
 *   stash; the process itself warmed up on another conversation), in ms per 10k tokens;
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

/** The request nearest the target size, and the one after it (the next turn). */
function conversation(): { warmup: ChatRequest; request: ChatRequest; next: ChatRequest; tokens: number } {
  const sessions = claudeCodeSpotterMainFiles().map(loadClaudeCodeSession);
  const counter = new TokenCounter(200_000);
  const main = sessions[0]!.requests.filter((entry) => !entry.summarization);
  let best = 0;
  main.forEach((entry, index) => {
    if (index + 1 >= main.length) return;
    if (Math.abs(counter.countRequest(entry.request) - TARGET_TOKENS) < Math.abs(counter.countRequest(main[best]!.request) - TARGET_TOKENS)) best = index;
  });
  const other = sessions[1]!.requests.filter((entry) => !entry.summarization);
  return { warmup: other[Math.floor(other.length / 2)]!.request, request: main[best]!.request, next: main[best + 1]!.request, tokens: counter.countRequest(main[best]!.request) };
}

export async function bench(): Promise<BenchReport> {
  if (!hasSharedData()) return { title: 'Pipeline speed on a 100k-token conversation', lines: ['skipped: ../shared/data is absent'] };
  const runs = Number(process.env.HERALD_BENCH_SPEED_RUNS ?? 7);
  const { warmup, request, next, tokens } = conversation();
  // JIT, grammars and tokenizer tables loaded on another conversation first, as in a running host.
  for (let index = 0; index < 2; index++) await newPipeline().pipeline.run(warmup);
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
    let started = process.cpuUsage();
    const first = await pipeline.run(request);
    coldCpu.push(cpuMs(started));
    cold.push(first.durationMs);
    started = process.cpuUsage();
    const second = await pipeline.run(next);
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

/**
 * The default pipeline over every trajectory in ../shared/data/trajectories, replayed turn
 * by turn: billed tokens and cached cost before and after, per strategy and in total,
 * prefix stability, losslessness, and time per request.
 */
import { Pipeline, type PipelineConfig } from '../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { createStrategies } from '../../src/core/strategies';
import { TokenCounter } from '../../src/core/tokens';
import { loadTrajectory, trajectoryNames, turnRequests } from '../support/sharedData';
import { replay } from '../support/replay';
import { floorOf } from '../support/keepFloor';
import { parseRequest } from '../../src/core/chat';
import type { BenchReport } from './run';
import { median, percent, quantile } from './stats';

export async function bench(): Promise<BenchReport> {
  const limit = Number(process.env.HERALD_BENCH_TRAJECTORIES ?? Infinity);
  const names = trajectoryNames().slice(0, limit);
  const tokens = new TokenCounter(200_000);
  // HERALD_BENCH_CONFIG: a PipelineConfig as JSON, to compare settings (e.g. {"enabled":{"code_graph":false}}).
  const config = JSON.parse(process.env.HERALD_BENCH_CONFIG ?? '{}') as PipelineConfig;
  let tokensBefore = 0;
  let tokensAfter = 0;
  let costBefore = 0;
  let costAfter = 0;
  let turns = 0;
  let stable = 0;
  let lossless = 0;
  const durations: number[] = [];
  const saved: Record<string, number> = {};
  let strategyIds: string[] = [];
  let factsUsed = 0;
  let factsVisible = 0;
  const floor = { lines: { tokens: 0, cost: 0 }, whole: { tokens: 0, cost: 0 } };
  for (const name of names) {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const pipeline = new Pipeline(createStrategies(), config, { stash, tokens });
    strategyIds = pipeline.enabledIds();
    const bodies = turnRequests(loadTrajectory(name));
    const summary = await replay(pipeline, stash, bodies, tokens);
    const requests = bodies.map((body) => parseRequest(body));
    for (const [reading, into] of [[{ failures: 'failure-lines', markers: false }, floor.lines], [{ failures: 'whole-output', markers: true }, floor.whole]] as const) {
      const bound = floorOf(requests, tokens, reading);
      into.tokens += bound.tokens;
      into.cost += bound.cachedCost;
    }
    factsUsed += summary.factsUsed;
    factsVisible += summary.factsVisible;
    tokensBefore += summary.tokensBefore;
    tokensAfter += summary.tokensAfter;
    costBefore += summary.cachedCostBefore;
    costAfter += summary.cachedCostAfter;
    turns += summary.turns.length;
    stable += summary.prefixStableTurns;
    lossless += summary.losslessTurns;
    for (const turn of summary.turns) durations.push(turn.durationMs);
    for (const [id, value] of Object.entries(summary.savedByStrategy)) saved[id] = (saved[id] ?? 0) + value;
  }
  const lines = [
    `trajectories: ${names.length}, requests: ${turns}, strategies: ${strategyIds.join(', ') || '(none)'}`,
    `billed input tokens: ${tokensBefore} → ${tokensAfter} (saved ${percent(tokensBefore - tokensAfter, tokensBefore)})`,
    `cached cost (0.1 read / 1.25 write): ${costBefore.toFixed(0)} → ${costAfter.toFixed(0)} (saved ${percent(costBefore - costAfter, costBefore)})`,
    `prefix stability: ${percent(stable, turns)} of requests; lossless: ${percent(lossless, turns)}`,
    `time per request: median ${median(durations).toFixed(2)} ms, p95 ${quantile(durations, 0.95).toFixed(2)} ms`,
    `code-like facts the next reply took from history, still shown: ${percent(factsVisible, factsUsed)} (${factsVisible} of ${factsUsed})`,
    `keep-rule floor (prose and non-failing observations gone at no cost; failures as failure lines): tokens saved ${percent(tokensBefore - floor.lines.tokens, tokensBefore)}, cached cost saved ${percent(costBefore - floor.lines.cost, costBefore)}`,
    `keep-rule floor, failed outputs kept whole and one marker per shortened message: tokens saved ${percent(tokensBefore - floor.whole.tokens, tokensBefore)}, cached cost saved ${percent(costBefore - floor.whole.cost, costBefore)}`,
    'tokens saved per strategy:',
    ...Object.entries(saved).sort((a, b) => b[1] - a[1]).map(([id, value]) => `  ${id}: ${value} (${percent(value, tokensBefore)})`),
  ];
  return {
    title: 'Default pipeline on the trajectories (turn-by-turn replay)',
    lines,
    figures: { trajectories: names.length, requests: turns, tokensBefore, tokensAfter, costBefore, costAfter, stable, lossless, saved, factsUsed, factsVisible, floor, medianMs: median(durations), p95Ms: quantile(durations, 0.95) },
  };
}

/**
 * The default pipeline over every trajectory in ../shared/data/trajectories, replayed turn
 * by turn: billed tokens and cached cost before and after, per strategy and in total,
 * prefix stability, losslessness, and time per request (in total and per strategy).
 *
 * Per strategy, two views. "Tokens it removed" is what each strategy's own decisions took
 * out of every request (history decisions replayed from the memo included). "Steps" prices
 * each saving strategy with caching included: the replay is run again with the saving
 * strategies switched on one at a time in pipeline order, so each row is what adding that
 * strategy to the ones before it changed in tokens and in cached cost, and the rows add up
 * to the total. HERALD_BENCH_STEPS=0 skips the steps.
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

/** What one replay of every trajectory under one configuration gave. */
interface ReplayTotals {
  readonly strategyIds: readonly string[];
  tokensBefore: number;
  tokensAfter: number;
  costBefore: number;
  costAfter: number;
  turns: number;
  stable: number;
  lossless: number;
  factsUsed: number;
  factsVisible: number;
  freshFactsUsed: number;
  freshFactsVisible: number;
  readonly durations: number[];
  /** Strategy id → time of its decision on each request. */
  readonly strategyDurations: Record<string, number[]>;
  readonly saved: Record<string, number>;
}

/** One row of the steps: the saving strategies up to `id` switched on. */
interface Step {
  readonly id: string;
  readonly tokensAfter: number;
  readonly costAfter: number;
  readonly stable: number;
  readonly lossless: number;
  readonly turns: number;
}

async function replayAll(names: readonly string[], config: PipelineConfig, tokens: TokenCounter, withFloor?: (requests: ReturnType<typeof parseRequest>[]) => void): Promise<ReplayTotals> {
  const totals: ReplayTotals = {
    strategyIds: new Pipeline(createStrategies(), config, { stash: new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) }) }).enabledIds(),
    tokensBefore: 0, tokensAfter: 0, costBefore: 0, costAfter: 0, turns: 0, stable: 0, lossless: 0, factsUsed: 0, factsVisible: 0, freshFactsUsed: 0, freshFactsVisible: 0,
    durations: [], strategyDurations: {}, saved: {},
  };
  for (const name of names) {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const pipeline = new Pipeline(createStrategies(), config, { stash, tokens });
    const bodies = turnRequests(loadTrajectory(name));
    const summary = await replay(pipeline, stash, bodies, tokens);
    withFloor?.(bodies.map((body) => parseRequest(body)));
    totals.factsUsed += summary.factsUsed;
    totals.factsVisible += summary.factsVisible;
    totals.freshFactsUsed += summary.freshFactsUsed;
    totals.freshFactsVisible += summary.freshFactsVisible;
    totals.tokensBefore += summary.tokensBefore;
    totals.tokensAfter += summary.tokensAfter;
    totals.costBefore += summary.cachedCostBefore;
    totals.costAfter += summary.cachedCostAfter;
    totals.turns += summary.turns.length;
    totals.stable += summary.prefixStableTurns;
    totals.lossless += summary.losslessTurns;
    for (const turn of summary.turns) {
      totals.durations.push(turn.durationMs);
      for (const decision of turn.decisions) (totals.strategyDurations[decision.strategy] ??= []).push(decision.durationMs);
    }
    for (const [id, value] of Object.entries(summary.savedByStrategy)) totals.saved[id] = (totals.saved[id] ?? 0) + value;
  }
  return totals;
}

/**
 * The saving strategies switched on one at a time, in pipeline order, the others as `config` has
 * them. A strategy that saves nothing in the full run may save once a later one is off (the
 * catch-all context_compression takes the test runs command_digest would have digested), so the
 * base is replayed until no strategy left on in it removes anything: the steps then start from
 * no saving at all and add up to the total.
 */
async function stepsOf(names: readonly string[], config: PipelineConfig, full: ReplayTotals, tokens: TokenCounter): Promise<{ base: Step; steps: Step[] }> {
  const savers = (totals: ReplayTotals): string[] => totals.strategyIds.filter((id) => (totals.saved[id] ?? 0) > 0);
  const enabledWith = (saving: readonly string[], on: readonly string[]): PipelineConfig => ({
    ...config,
    enabled: { ...config.enabled, ...Object.fromEntries(saving.map((id) => [id, on.includes(id)])) },
  });
  const stepOf = (id: string, totals: ReplayTotals): Step => ({ id, tokensAfter: totals.tokensAfter, costAfter: totals.costAfter, stable: totals.stable, lossless: totals.lossless, turns: totals.turns });
  let saving = savers(full);
  let base = await replayAll(names, enabledWith(saving, []), tokens);
  while (savers(base).length > 0) {
    const more = new Set([...saving, ...savers(base)]);
    saving = full.strategyIds.filter((id) => more.has(id));
    base = await replayAll(names, enabledWith(saving, []), tokens);
  }
  const steps: Step[] = [];
  for (let count = 1; count <= saving.length; count++) {
    // The last step is the full configuration, already replayed.
    const totals = count === saving.length ? full : await replayAll(names, enabledWith(saving, saving.slice(0, count)), tokens);
    steps.push(stepOf(saving[count - 1]!, totals));
  }
  return { base: stepOf('(none)', base), steps };
}

function stepLines(full: ReplayTotals, base: Step, steps: readonly Step[]): string[] {
  const lines = [
    'steps (saving strategies switched on one at a time in pipeline order; tokens and cached cost each one adds to the saving, with caching priced in):',
    `  without them: tokens ${percent(full.tokensBefore - base.tokensAfter, full.tokensBefore)}, cached cost ${percent(full.costBefore - base.costAfter, full.costBefore)} saved; prefix stability ${percent(base.stable, base.turns)}, lossless ${percent(base.lossless, base.turns)}`,
  ];
  let previous = base;
  for (const step of steps) {
    lines.push(
      `  + ${step.id}: tokens ${percent(previous.tokensAfter - step.tokensAfter, full.tokensBefore)}, cached cost ${percent(previous.costAfter - step.costAfter, full.costBefore)}; prefix stability ${percent(step.stable, step.turns)}, lossless ${percent(step.lossless, step.turns)}`,
    );
    previous = step;
  }
  return lines;
}

export async function bench(): Promise<BenchReport> {
  const limit = Number(process.env.HERALD_BENCH_TRAJECTORIES ?? Infinity);
  const names = trajectoryNames().slice(0, limit);
  const tokens = new TokenCounter(200_000);
  // HERALD_BENCH_CONFIG: a PipelineConfig as JSON, to compare settings (e.g. {"enabled":{"code_graph":false}}).
  const config = JSON.parse(process.env.HERALD_BENCH_CONFIG ?? '{}') as PipelineConfig;
  const floor = { lines: { tokens: 0, cost: 0 }, whole: { tokens: 0, cost: 0 }, conclusions: { tokens: 0, cost: 0 } };
  const readings = [
    [{ failures: 'failure-lines', markers: false }, floor.lines],
    [{ failures: 'whole-output', markers: true }, floor.whole],
    [{ failures: 'failure-lines', markers: true, prose: 'conclusions' }, floor.conclusions],
  ] as const;
  const full = await replayAll(names, config, tokens, (requests) => {
    for (const [reading, into] of readings) {
      const bound = floorOf(requests, tokens, reading);
      into.tokens += bound.tokens;
      into.cost += bound.cachedCost;
    }
  });
  const { tokensBefore, tokensAfter, costBefore, costAfter, turns, stable, lossless, factsUsed, factsVisible, durations, saved } = full;
  const stepped = process.env.HERALD_BENCH_STEPS === '0' ? undefined : await stepsOf(names, config, full, tokens);
  const strategyTimes = Object.fromEntries(
    Object.entries(full.strategyDurations).map(([id, values]) => [id, { medianMs: median(values), p95Ms: quantile(values, 0.95) }]),
  );
  const lines = [
    `trajectories: ${names.length}, requests: ${turns}, strategies: ${full.strategyIds.join(', ') || '(none)'}`,
    `billed input tokens: ${tokensBefore} → ${tokensAfter} (saved ${percent(tokensBefore - tokensAfter, tokensBefore)})`,
    `cached cost (0.1 read / 1.25 write): ${costBefore.toFixed(0)} → ${costAfter.toFixed(0)} (saved ${percent(costBefore - costAfter, costBefore)})`,
    `prefix stability: ${percent(stable, turns)} of requests; lossless: ${percent(lossless, turns)}`,
    `time per request: median ${median(durations).toFixed(2)} ms, p95 ${quantile(durations, 0.95).toFixed(2)} ms`,
    `code-like facts the next reply took from history, still shown: ${percent(factsVisible, factsUsed)} (${factsVisible} of ${factsUsed})`,
    `code-like facts the next reply took from the fresh input (digested on arrival), still shown: ${percent(full.freshFactsVisible, full.freshFactsUsed)} (${full.freshFactsVisible} of ${full.freshFactsUsed})`,
    `keep-rule floor (prose and non-failing observations gone at no cost; failures as failure lines): tokens saved ${percent(tokensBefore - floor.lines.tokens, tokensBefore)}, cached cost saved ${percent(costBefore - floor.lines.cost, costBefore)}`,
    `keep-rule floor, failed outputs kept whole and one marker per shortened message: tokens saved ${percent(tokensBefore - floor.whole.tokens, tokensBefore)}, cached cost saved ${percent(costBefore - floor.whole.cost, costBefore)}`,
    `keep-rule floor, the agent's conclusions kept (history_trim's rule), failures as failure lines, one marker per shortened message: tokens saved ${percent(tokensBefore - floor.conclusions.tokens, tokensBefore)}, cached cost saved ${percent(costBefore - floor.conclusions.cost, costBefore)}`,
    'tokens each strategy removed (its own decisions, summed over every request):',
    ...Object.entries(saved).sort((a, b) => b[1] - a[1]).map(([id, value]) => `  ${id}: ${value} (${percent(value, tokensBefore)})`),
    ...(stepped ? stepLines(full, stepped.base, stepped.steps) : []),
    'time per request, per strategy (median / p95 ms):',
    ...full.strategyIds.map((id) => `  ${id}: ${(strategyTimes[id]?.medianMs ?? 0).toFixed(2)} / ${(strategyTimes[id]?.p95Ms ?? 0).toFixed(2)}`),
  ];
  return {
    title: 'Default pipeline on the trajectories (turn-by-turn replay)',
    lines,
    figures: {
      trajectories: names.length, requests: turns, tokensBefore, tokensAfter, costBefore, costAfter, stable, lossless, saved, factsUsed, factsVisible, freshFactsUsed: full.freshFactsUsed, freshFactsVisible: full.freshFactsVisible, floor,
      medianMs: median(durations), p95Ms: quantile(durations, 0.95), strategyTimes, steps: stepped,
    },
  };
}

/**
 * What Herald's `provideTokenCount` choice means for Copilot's summarization. Copilot's agent
 * summarizes when the prompt, counted with the model's tokenizer (Herald's provideTokenCount),
 * passes 0.85 × its budget (microsoft/vscode-copilot-chat `agentIntent.ts`). Herald reports the
 * original's size; this replays the 100 real sessions turn by turn through the default pipeline
 * and measures, at each session's last request (the largest, the one nearest summarization),
 * what share of the original Herald actually sends: at Copilot's threshold by the original's
 * count, the request sent fills that share of 85% of the window.
 *   npm run bench -- tokenCount
 */
import { Pipeline } from '../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { createStrategies } from '../../src/core/strategies';
import { TokenCounter } from '../../src/core/tokens';
import { hasSharedData, loadTrajectory, trajectoryNames, turnRequests } from '../support/sharedData';
import { replay } from '../support/replay';
import type { BenchReport } from './run';
import { median, quantile } from './stats';

/** Copilot's share of the budget at which it summarizes (agentIntent.ts: `budgetThreshold = floor((baseBudget - toolTokens) * 0.85)`). */
const SUMMARIZE_SHARE = 0.85;

export async function bench(): Promise<BenchReport> {
  if (!hasSharedData()) return { title: 'Token counts reported to Copilot', lines: ['skipped: ../shared/data is absent'] };
  const tokens = new TokenCounter();
  const lastShares: number[] = [];
  let largest = { before: 0, after: 0 };
  for (const name of trajectoryNames()) {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const pipeline = new Pipeline(createStrategies(), {}, { stash, tokens });
    const summary = await replay(pipeline, stash, turnRequests(loadTrajectory(name)), tokens);
    const last = summary.turns.at(-1);
    if (!last || last.tokensBefore === 0) continue;
    lastShares.push(last.tokensAfter / last.tokensBefore);
    if (last.tokensBefore > largest.before) largest = { before: last.tokensBefore, after: last.tokensAfter };
  }
  const sorted = [...lastShares].sort((a, b) => a - b);
  const share = median(sorted);
  const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;
  return {
    title: 'Token counts reported to Copilot (provideTokenCount: the original)',
    lines: [
      `${lastShares.length} sessions; at each session's last request Herald sends a median ${percent(share)} of the original (p10 ${percent(quantile(sorted, 0.1))}, p90 ${percent(quantile(sorted, 0.9))})`,
      `so when Copilot summarizes (the original at ${percent(SUMMARIZE_SHARE)} of its budget), the request Herald sends fills a median ${percent(share * SUMMARIZE_SHARE)} of the window`,
      `largest last request: ${largest.before.toLocaleString('en-US')} → ${largest.after.toLocaleString('en-US')} tokens`,
    ],
    figures: { sessions: lastShares.length, medianShare: share, p10: quantile(sorted, 0.1), p90: quantile(sorted, 0.9), windowShareAtSummarization: share * SUMMARIZE_SHARE },
  };
}

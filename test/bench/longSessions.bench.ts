/**
 * Both long Claude Code sessions (../shared/data/clients/claude-code/spotter) replayed to the
 * end the way `herald optimize` runs them: each request in a process of its own (a fresh stash
 * over the shared store, the memo and pins saved and loaded), each optimized request expanded
 * by another process. Goal: every request of every session expands back to the original.
 */
import { TokenCounter } from '../../src/core/tokens';
import { claudeCodeSpotterMainFiles, loadClaudeCodeSession } from '../support/clients';
import { replayProcessByProcess } from '../support/clients/processReplay';
import { hasSharedData } from '../support/sharedData';
import type { BenchReport } from './run';
import { median, quantile } from './stats';

export async function bench(): Promise<BenchReport> {
  if (!hasSharedData()) return { title: 'Long sessions, one process per request', lines: ['skipped: ../shared/data is absent'] };
  const tokens = new TokenCounter(200_000);
  const lines: string[] = [];
  const figures: Record<string, unknown> = {};
  for (const file of claudeCodeSpotterMainFiles()) {
    const session = loadClaudeCodeSession(file);
    const replay = await replayProcessByProcess(session, tokens);
    const lossless = replay.requests - replay.notLossless.length;
    lines.push(`${session.name}: ${replay.requests} requests, ${lossless} expand back to the original${replay.notLossless.length > 0 ? ` (not: ${replay.notLossless.join(', ')})` : ''}; median ${median(replay.durations).toFixed(0)} ms, p95 ${quantile(replay.durations, 0.95).toFixed(0)} ms per request`);
    figures[session.name] = { requests: replay.requests, lossless, notLossless: replay.notLossless };
  }
  return { title: 'Long sessions, one process per request (herald optimize), every request expanded', lines, figures };
}

/**
 * The filter API on CoSQA: 20 candidates per query with the labelled one among them. How
 * often the labelled item is kept and how many tokens are kept, per aggressiveness, and the
 * latency per request with lexical scoring.
 */
import { filter, AGGRESSIVENESS } from '../../src/core/filter';
import { TokenCounter } from '../../src/core/tokens';
import { candidatesFor, loadCosqa } from '../support/cosqa';
import type { BenchReport } from './run';
import { median, percent, quantile } from './stats';

export async function bench(): Promise<BenchReport> {
  const cosqa = loadCosqa();
  const tokens = new TokenCounter(100_000);
  const lines: string[] = [`queries: ${cosqa.queries.length}, 20 candidates each (the labelled snippet + 19 others), lexical scoring`];
  const figures: Record<string, unknown> = {};
  for (const aggressiveness of AGGRESSIVENESS) {
    let kept = 0;
    let keptTokens = 0;
    let sentTokens = 0;
    let keptItems = 0;
    const latencies: number[] = [];
    for (let index = 0; index < cosqa.queries.length; index++) {
      const query = cosqa.queries[index]!;
      const result = await filter({ question: query.query, candidates: candidatesFor(cosqa, index), aggressiveness }, { tokens });
      latencies.push(result.report.latencyMs);
      if (result.kept.some((item) => item.id === `code-${query.answer}`)) kept++;
      keptItems += result.kept.length;
      keptTokens += result.report.tokensAfter;
      sentTokens += result.report.tokensBefore;
    }
    const row = { labelledKept: kept / cosqa.queries.length, tokensKept: keptTokens / sentTokens, itemsKeptPerQuery: keptItems / cosqa.queries.length, medianMs: median(latencies), p95Ms: quantile(latencies, 0.95) };
    figures[aggressiveness] = row;
    lines.push(`${aggressiveness.padEnd(12)} labelled kept ${percent(kept, cosqa.queries.length)}, tokens kept ${percent(keptTokens, sentTokens)}, items kept ${row.itemsKeptPerQuery.toFixed(1)}/20, latency median ${row.medianMs.toFixed(2)} ms p95 ${row.p95Ms.toFixed(2)} ms`);
  }
  return { title: 'Filter API on CoSQA (lexical scoring)', lines, figures };
}

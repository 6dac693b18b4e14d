/**
 * The one-request workload set (test/support/workloads): the default pipeline, no per-workload
 * settings, on each request of the commonest single-turn waste (bulk pasted under a question, a
 * fresh tool result). Per workload and per category: tokens before and after, the share saved,
 * how many key facts the optimized request still shows outside a marker, and losslessness.
 * HERALD_BENCH_WORKLOADS=id,id runs only those; HERALD_BENCH_CONFIG takes a PipelineConfig as JSON.
 */
import type { PipelineConfig } from '../../src/core/pipeline';
import { TokenCounter } from '../../src/core/tokens';
import { hasSharedData } from '../support/sharedData';
import { buildWorkloads, type WorkloadCategory } from '../support/workloads';
import { runWorkload, type WorkloadResult } from '../support/workloads/measure';
import type { BenchReport } from './run';
import { median, percent } from './stats';

interface Totals { before: number; after: number; facts: number; visible: number; workloads: number; complete: number }

function add(totals: Totals, result: WorkloadResult): void {
  totals.before += result.tokensBefore;
  totals.after += result.tokensAfter;
  totals.facts += result.visible.length + result.hidden.length;
  totals.visible += result.visible.length;
  totals.workloads++;
  if (result.hidden.length === 0) totals.complete++;
}

function empty(): Totals {
  return { before: 0, after: 0, facts: 0, visible: 0, workloads: 0, complete: 0 };
}

export async function bench(): Promise<BenchReport> {
  if (!hasSharedData()) return { title: 'One-request workloads (skipped: ../shared/data is absent)', lines: [] };
  const wanted = (process.env.HERALD_BENCH_WORKLOADS ?? '').split(',').filter(Boolean);
  const config = JSON.parse(process.env.HERALD_BENCH_CONFIG ?? '{}') as PipelineConfig;
  const workloads = buildWorkloads().filter((workload) => wanted.length === 0 || wanted.includes(workload.id));
  const tokens = new TokenCounter(200_000);
  const all = empty();
  const byCategory = new Map<WorkloadCategory, Totals>();
  const rows: string[] = ['| workload | pattern | tokens before | after | saved | facts visible |', '|---|---|---:|---:|---:|---:|'];
  const results: WorkloadResult[] = [];
  const savings: number[] = [];
  for (const workload of workloads) {
    const result = await runWorkload(workload, tokens, config);
    results.push(result);
    add(all, result);
    const category = byCategory.get(workload.category) ?? empty();
    add(category, result);
    byCategory.set(workload.category, category);
    savings.push((result.tokensBefore - result.tokensAfter) / result.tokensBefore);
    const facts = `${result.visible.length}/${workload.facts.length}`;
    rows.push(`| \`${workload.id}\`${workload.planted ? ' (planted)' : ''} | ${workload.pattern} | ${result.tokensBefore} | ${result.tokensAfter} | ${percent(result.tokensBefore - result.tokensAfter, result.tokensBefore)} | ${facts}${result.lossless ? '' : ' (not lossless!)'} |`);
  }
  const lines = [
    `workloads: ${all.workloads}; tokens ${all.before} → ${all.after}: saved ${percent(all.before - all.after, all.before)} over the set (median per workload ${percent(median(savings), 1)}); key facts visible ${all.visible}/${all.facts}; workloads with every fact visible ${all.complete}/${all.workloads}; lossless ${results.filter((result) => result.lossless).length}/${results.length}`,
    ...[...byCategory].map(([category, totals]) => `  ${category}: ${totals.workloads} workloads, tokens ${totals.before} → ${totals.after}, saved ${percent(totals.before - totals.after, totals.before)}, facts visible ${totals.visible}/${totals.facts}`),
    ...rows,
    'facts hidden behind a marker:',
    ...results.filter((result) => result.hidden.length > 0).map((result) => `  ${result.id}: ${result.hidden.map((fact) => JSON.stringify(fact.slice(0, 80))).join(', ')}`),
    'tokens removed, by strategy (summed over the set):',
    ...Object.entries(results.reduce<Record<string, number>>((sum, result) => {
      for (const [id, value] of Object.entries(result.savedBy)) sum[id] = (sum[id] ?? 0) + value;
      return sum;
    }, {})).sort((a, b) => b[1] - a[1]).map(([id, value]) => `  ${id}: ${value} (${percent(value, all.before)})`),
  ];
  return {
    title: 'One-request workloads: default pipeline, tokens saved and key facts visible',
    lines,
    figures: {
      workloads: all.workloads, tokensBefore: all.before, tokensAfter: all.after, factsVisible: all.visible, facts: all.facts, complete: all.complete,
      categories: Object.fromEntries(byCategory),
      perWorkload: results.map((result) => ({ id: result.id, tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter, visible: result.visible.length, hidden: result.hidden, lossless: result.lossless, durationMs: result.durationMs })),
    },
  };
}

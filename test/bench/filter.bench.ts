/**
 * The filter API on CoSQA. Hard candidates, as a real retriever hands them over: the labelled
 * function and the 19 sharing the most words with the query. The dev half (even queries) is
 * where the model's 0–3 calibration was chosen (the sweep is printed); the test half (odd
 * queries) is held out. Per aggressiveness: how often the labelled item is kept, how many of
 * the 20 are kept, the share of tokens kept and the latency, lexical against fused (the
 * shipped retrieval model). Random candidates (the labelled one among 19 drawn at random) are
 * reported too, lexical and fused.
 */
import { filter, AGGRESSIVENESS, SHIPPED_MODEL_SCALE, type ModelScale } from '../../src/core/filter';
import { LexicalIndex, loadEmbedder, bundledModelFolder, type Embedder } from '../../src/core/relevance';
import { TokenCounter } from '../../src/core/tokens';
import { candidatesFor, hardCandidatesFor, loadCosqa, type Cosqa } from '../support/cosqa';
import type { BenchReport } from './run';
import { median, percent, quantile } from './stats';

interface Row {
  readonly labelledKept: number;
  readonly itemsKeptPerQuery: number;
  readonly tokensKept: number;
  readonly medianMs: number;
  readonly p95Ms: number;
}

type Candidates = (cosqa: Cosqa, queryIndex: number) => { id: string; content: string }[];

async function run(cosqa: Cosqa, queryIndexes: readonly number[], candidates: Candidates, aggressiveness: (typeof AGGRESSIVENESS)[number], tokens: TokenCounter, embedder?: Embedder, modelScale?: ModelScale): Promise<Row> {
  let kept = 0;
  let keptTokens = 0;
  let sentTokens = 0;
  let keptItems = 0;
  const latencies: number[] = [];
  for (const index of queryIndexes) {
    const query = cosqa.queries[index]!;
    const result = await filter({ question: query.query, candidates: candidates(cosqa, index), aggressiveness }, { tokens, ...(embedder ? { embedder } : {}), ...(modelScale ? { modelScale } : {}) });
    latencies.push(result.report.latencyMs);
    if (result.kept.some((item) => item.id === `code-${query.answer}`)) kept++;
    keptItems += result.kept.length;
    keptTokens += result.report.tokensAfter;
    sentTokens += result.report.tokensBefore;
  }
  return { labelledKept: kept / queryIndexes.length, tokensKept: keptTokens / sentTokens, itemsKeptPerQuery: keptItems / queryIndexes.length, medianMs: median(latencies), p95Ms: quantile(latencies, 0.95) };
}

function format(label: string, row: Row): string {
  return `  ${label.padEnd(26)} labelled kept ${percent(row.labelledKept, 1)}, items kept ${row.itemsKeptPerQuery.toFixed(1)}/20, tokens kept ${percent(row.tokensKept, 1)}, latency median ${row.medianMs.toFixed(2)} ms p95 ${row.p95Ms.toFixed(2)} ms`;
}

export async function bench(): Promise<BenchReport> {
  const cosqa = loadCosqa();
  const tokens = new TokenCounter(100_000);
  const folder = bundledModelFolder();
  if (!folder) throw new Error('Herald bench: the shipped model (media/model/herald-retrieval) is missing; run npm run train-model');
  const embedder = await loadEmbedder(folder);
  const index = new LexicalIndex(cosqa.corpus);
  const hardCache = new Map<number, { id: string; content: string }[]>();
  const hard: Candidates = (set, queryIndex) => {
    let list = hardCache.get(queryIndex);
    if (!list) hardCache.set(queryIndex, (list = hardCandidatesFor(set, queryIndex, index)));
    return list;
  };
  const limit = Number(process.env.HERALD_BENCH_QUERIES ?? Infinity);
  const all = cosqa.queries.map((_, position) => position);
  const dev = all.filter((position) => position % 2 === 0).slice(0, limit);
  const test = all.filter((position) => position % 2 === 1).slice(0, limit);
  const lines: string[] = [`CoSQA, 20 candidates per query; dev ${dev.length} queries (calibration chosen here), test ${test.length} (held out); fused = words + ${embedder.name} (${JSON.stringify(SHIPPED_MODEL_SCALE)})`];
  const figures: Record<string, unknown> = {};
  for (const [name, queries] of [['hard candidates, dev', dev], ['hard candidates, test', test]] as const) {
    lines.push(`${name}:`);
    for (const aggressiveness of AGGRESSIVENESS) {
      const lexical = await run(cosqa, queries, hard, aggressiveness, tokens);
      const fused = await run(cosqa, queries, hard, aggressiveness, tokens, embedder);
      figures[`${name} ${aggressiveness}`] = { lexical, fused };
      lines.push(format(`${aggressiveness} lexical`, lexical), format(`${aggressiveness} fused`, fused));
    }
  }
  lines.push('random candidates, all 500 queries:');
  for (const aggressiveness of AGGRESSIVENESS) {
    const lexical = await run(cosqa, all.slice(0, limit), candidatesFor, aggressiveness, tokens);
    const fused = await run(cosqa, all.slice(0, limit), candidatesFor, aggressiveness, tokens, embedder);
    figures[`random ${aggressiveness}`] = { lexical, fused };
    lines.push(format(`${aggressiveness} lexical`, lexical), format(`${aggressiveness} fused`, fused));
  }
  // The calibration sweep on the dev half at balanced: what the shipped scale was chosen from.
  const sweep: string[] = [];
  for (const fusedWeight of [0.7, 0.9]) {
    for (const sharpness of [2, 4]) {
      for (const meaningShare of [0.3, 0.5]) {
        const scale = { ...SHIPPED_MODEL_SCALE, fusedWeight, sharpness, meaningShare };
        const hardRow = await run(cosqa, dev, hard, 'balanced', tokens, embedder, scale);
        const randomRow = await run(cosqa, dev, candidatesFor, 'balanced', tokens, embedder, scale);
        sweep.push(`fused weight ${fusedWeight}, sharpness ${sharpness}, meaning share ${meaningShare}: hard ${percent(hardRow.labelledKept, 1)} with ${hardRow.itemsKeptPerQuery.toFixed(1)}, random ${percent(randomRow.labelledKept, 1)} with ${randomRow.itemsKeptPerQuery.toFixed(1)}`);
      }
    }
  }
  lines.push('calibration sweep, dev, balanced (labelled kept with items kept):', ...sweep.map((line) => `  ${line}`));
  return { title: 'Filter API on CoSQA (lexical and fused scoring)', lines, figures };
}

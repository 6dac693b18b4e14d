/**
 * The relevance scorer and the two strategies built on it:
 *
 * - retrieval quality on ../shared/data/retrieval: CoSQA (500 code-search queries over 6,267
 *   Python functions; MRR and nDCG@10) and Cranfield (225 queries over 1,400 abstracts, graded
 *   judgements; nDCG@10), lexical against fused. Fused runs on the generated tiny model, whose
 *   vectors are random: its figures exercise the code path, they do not measure quality;
 * - relevance_filter on every log system: a failure question over the whole 2,000-line log as
 *   history tool output; the share of ERROR and WARN lines kept (levels from the structured
 *   CSV where the system has them) and the share of tokens kept;
 * - time per request (relevance_filter on a 2,000-line log; window_budget on a long trajectory);
 * - embedding throughput of the tiny model on this machine (single-threaded wasm).
 *
 * HERALD_BENCH_QUERIES limits the number of queries per retrieval set (default all).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeTinyEmbeddingModel } from '../../scripts/makeTinyEmbeddingModel';
import { parseRequest } from '../../src/core/chat';
import { partText } from '../../src/core/chat/types';
import { Pipeline } from '../../src/core/pipeline';
import { fuseScores, LexicalIndex, loadOnnxEmbedder, resolveModelFolder } from '../../src/core/relevance';
import { loadTokenizer } from '../../src/core/relevance/embedding/loadTokenizer';
import type { Embedder } from '../../src/core/relevance';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { createRelevanceFilter } from '../../src/core/strategies/relevanceFilter';
import { createWindowBudget } from '../../src/core/strategies/windowBudget';
import { TokenCounter } from '../../src/core/tokens';
import { replay } from '../support/replay';
import { loadTrajectory, sharedPath, trajectoryNames, turnRequests } from '../support/sharedData';
import type { BenchReport } from './run';
import { median, percent, quantile } from './stats';

interface Judged {
  readonly query: string;
  /** Document index → graded gain (higher is more relevant). */
  readonly gains: ReadonlyMap<number, number>;
}

interface Quality {
  readonly mrr: number;
  readonly ndcg10: number;
  readonly msPerQuery: number;
}

const tokens = new TokenCounter(200_000);

export async function bench(): Promise<BenchReport> {
  const limit = Number(process.env.HERALD_BENCH_QUERIES ?? Infinity);
  const modelDir = path.resolve(__dirname, '..', '.cache', 'bench-tiny-embedding');
  writeTinyEmbeddingModel(modelDir);
  const embedder = await loadOnnxEmbedder(modelDir);

  const cosqa = loadCosqa(limit);
  const cranfield = loadCranfield(limit);
  const results: Record<string, { lexical: Quality; fused: Quality }> = {};
  for (const [name, set] of [['CoSQA', cosqa], ['Cranfield', cranfield]] as const) {
    results[name] = { lexical: await evaluate(set.documents, set.queries), fused: await evaluate(set.documents, set.queries, embedder) };
  }

  const logs = await logFiltering();
  const throughput = await embeddingThroughput(modelDir);
  const budgetTimes = await windowBudgetTimes();
  const trajectoryLimit = Number(process.env.HERALD_BENCH_TRAJECTORIES ?? 20);
  const filterAlone = await replayAlone(trajectoryLimit, (stash) => new Pipeline([createRelevanceFilter()], { enabled: { relevance_filter: true } }, { stash, tokens }));
  const budgetAlone = await replayAlone(trajectoryLimit, (stash) => new Pipeline([createWindowBudget()], { options: { window_budget: { maxTokens: 16_000 } } }, { stash, tokens }));

  const lines = [
    'retrieval quality (lexical = BM25 over the code-aware tokenizer; fused = 0.5 lexical + 0.5 cosine on the TINY RANDOM model: not a quality figure):',
    ...Object.entries(results).map(([name, result]) =>
      `  ${name}: lexical MRR ${result.lexical.mrr.toFixed(3)}, nDCG@10 ${result.lexical.ndcg10.toFixed(3)} (${result.lexical.msPerQuery.toFixed(1)} ms/query) · fused-tiny MRR ${result.fused.mrr.toFixed(3)}, nDCG@10 ${result.fused.ndcg10.toFixed(3)}`),
    `  queries: CoSQA ${cosqa.queries.length} over ${cosqa.documents.length} functions; Cranfield ${cranfield.queries.length} over ${cranfield.documents.length} abstracts`,
    'relevance_filter on each log (2,000 lines as history tool output; question: "Why did it fail? Show the errors and warnings."):',
    ...logs.rows.map((row) => `  ${row.system.padEnd(10)} ERROR kept ${row.errorShare} · WARN kept ${row.warnShare} · lines kept ${row.linesKept} · tokens kept ${percent(row.tokensAfter, row.tokensBefore)} · ${row.ms.toFixed(0)} ms`),
    `time per request: relevance_filter on a 2,000-line log median ${median(logs.times).toFixed(0)} ms; window_budget on a long trajectory median ${median(budgetTimes).toFixed(1)} ms, p95 ${quantile(budgetTimes, 0.95).toFixed(1)} ms`,
    `relevance_filter alone on ${filterAlone.trajectories} trajectories (${filterAlone.requests} requests): tokens saved ${filterAlone.tokensSaved}, cached cost saved ${filterAlone.costSaved}, prefix stability ${filterAlone.stable}, lossless ${filterAlone.lossless}`,
    `window_budget alone, budget 16,000 tokens, same trajectories: tokens saved ${budgetAlone.tokensSaved}, cached cost saved ${budgetAlone.costSaved}, prefix stability ${budgetAlone.stable}, lossless ${budgetAlone.lossless}, requests over budget after cropping ${budgetAlone.overBudget}`,
    `embedding throughput (tiny model, 16 dims, single-threaded wasm): ${throughput.textsPerSecond.toFixed(0)} texts/s, ${throughput.tokensPerSecond.toFixed(0)} tokens/s (model load ${throughput.loadMs.toFixed(0)} ms)`,
  ];
  return { title: 'Relevance scorer, relevance_filter and window_budget', lines, figures: { filterAlone, budgetAlone, retrieval: results, logs: logs.rows, filterMedianMs: median(logs.times), windowBudgetMedianMs: median(budgetTimes), throughput } };
}

function loadCosqa(limit: number): { documents: string[]; queries: Judged[] } {
  const map = JSON.parse(fs.readFileSync(sharedPath('retrieval', 'cosqa', 'code_idx_map.txt'), 'utf8')) as Record<string, number>;
  const documents: string[] = [];
  for (const [code, index] of Object.entries(map)) documents[index] = code;
  const raw = JSON.parse(fs.readFileSync(sharedPath('retrieval', 'cosqa', 'cosqa-retrieval-dev-500.json'), 'utf8')) as { doc: string; retrieval_idx: number }[];
  const queries = raw.slice(0, limit).map((entry) => ({ query: entry.doc, gains: new Map([[entry.retrieval_idx, 1]]) }));
  return { documents, queries };
}

function loadCranfield(limit: number): { documents: string[]; queries: Judged[] } {
  const split = (text: string): { id: number; body: string }[] =>
    text.split(/^\.I /m).slice(1).map((chunk) => ({ id: Number(chunk.slice(0, chunk.indexOf('\n'))), body: chunk.slice(chunk.indexOf('\n') + 1).replace(/^\.[TAWB]\s*$/gm, ' ') }));
  const documents = split(fs.readFileSync(sharedPath('retrieval', 'cranfield', 'cran.all.1400'), 'utf8')).map((document) => document.body);
  // The judgements number queries by their position in cran.qry (1…225), not by their .I label.
  const queryTexts = split(fs.readFileSync(sharedPath('retrieval', 'cranfield', 'cran.qry'), 'utf8')).map((query) => query.body);
  const gains = new Map<number, Map<number, number>>();
  for (const line of fs.readFileSync(sharedPath('retrieval', 'cranfield', 'cranqrel'), 'utf8').split('\n')) {
    const [query, document, code] = line.trim().split(/\s+/).map(Number);
    if (!query || !document || code === undefined || code < 1) continue;
    // Cleverdon's codes: 1 = complete answer … 4 = minimum interest; gain 4 … 1.
    const judged = gains.get(query) ?? new Map<number, number>();
    judged.set(document - 1, 5 - code);
    gains.set(query, judged);
  }
  const queries = queryTexts.map((query, index) => ({ query, gains: gains.get(index + 1) ?? new Map<number, number>() })).filter((query) => query.gains.size > 0).slice(0, limit);
  return { documents, queries };
}

async function evaluate(documents: readonly string[], queries: readonly Judged[], embedder?: Embedder): Promise<Quality> {
  const index = new LexicalIndex(documents);
  const documentVectors = embedder ? await embedder.embed(documents) : undefined;
  let reciprocal = 0;
  let ndcg = 0;
  const started = performance.now();
  for (const judged of queries) {
    let scores = index.score(judged.query);
    if (embedder && documentVectors) scores = fuseScores(scores, (await embedder.embed([judged.query]))[0]!, documentVectors, 0.5);
    const ranking = scores.map((score, document) => ({ score, document })).sort((a, b) => b.score - a.score || a.document - b.document);
    const firstRelevant = ranking.findIndex((entry) => (judged.gains.get(entry.document) ?? 0) > 0);
    reciprocal += firstRelevant >= 0 ? 1 / (firstRelevant + 1) : 0;
    const dcg = ranking.slice(0, 10).reduce((sum, entry, rank) => sum + (2 ** (judged.gains.get(entry.document) ?? 0) - 1) / Math.log2(rank + 2), 0);
    const ideal = [...judged.gains.values()].sort((a, b) => b - a).slice(0, 10).reduce((sum, gain, rank) => sum + (2 ** gain - 1) / Math.log2(rank + 2), 0);
    ndcg += ideal > 0 ? dcg / ideal : 0;
  }
  const count = Math.max(1, queries.length);
  return { mrr: reciprocal / count, ndcg10: ndcg / count, msPerQuery: (performance.now() - started) / count };
}

interface LogRow {
  readonly system: string;
  readonly errorShare: string;
  readonly warnShare: string;
  readonly linesKept: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly ms: number;
}

/** Each log as a history tool output under a failure question, through the real strategy. */
async function logFiltering(): Promise<{ rows: LogRow[]; times: number[] }> {
  const rows: LogRow[] = [];
  const times: number[] = [];
  for (const system of fs.readdirSync(sharedPath('logs')).sort()) {
    const folder = sharedPath('logs', system);
    const log = fs.readFileSync(path.join(folder, `${system}_2k.log`), 'utf8').replace(/\n$/, '');
    const levels = levelsOf(path.join(folder, `${system}_2k.log_structured.csv`));
    const messages = [
      { role: 'system', content: 'You are an operations agent.' },
      { role: 'user', content: `Investigate the ${system} service.` },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: `cat ${system}.log` }) } }] },
      { role: 'tool', tool_call_id: 'call_1', content: log },
      { role: 'assistant', content: 'I have the log.' },
      { role: 'user', content: 'Why did it fail? Show the errors and warnings.' },
    ];
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const pipeline = new Pipeline([createRelevanceFilter()], { enabled: { relevance_filter: true } }, { stash, tokens });
    const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages }));
    // The strategy's own time (the runner's token counting around it is not the filter's cost).
    const ms = result.decisions[0]!.durationMs;
    times.push(ms);
    const kept = new Set(partText(result.request.messages[3]!.parts[0]!).split('\n'));
    const lines = log.split('\n');
    const share = (wanted: (level: string) => boolean): string => {
      const indexes = levels ? lines.map((_, index) => index).filter((index) => wanted(levels[index] ?? '')) : [];
      if (!levels || indexes.length === 0) return 'n/a';
      return `${percent(indexes.filter((index) => kept.has(lines[index]!)).length, indexes.length)} of ${indexes.length}`;
    };
    rows.push({
      system,
      errorShare: share((level) => /^(ERROR|E|F|FATAL|error|crit|alert|emerg)$/.test(level)),
      warnShare: share((level) => /^(WARN|WARNING|W|warn|warning)$/.test(level)),
      linesKept: percent(lines.filter((line) => kept.has(line)).length, lines.length),
      tokensBefore: tokens.count(log),
      tokensAfter: tokens.count(partText(result.request.messages[3]!.parts[0]!)),
      ms,
    });
  }
  return { rows, times };
}

/** Each line's level from the structured CSV (LogHub), when the system logs one. */
function levelsOf(file: string): string[] | undefined {
  const rows = fs.readFileSync(file, 'utf8').split('\n').filter((row) => row.length > 0);
  const header = rows[0]!.split(',');
  const column = header.indexOf('Level');
  if (column < 0) return undefined;
  // Fields before Level never contain commas except quoted times ("18:01:47,978"), so parse quotes.
  return rows.slice(1).map((row) => {
    const fields = row.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? [];
    return (fields[column] ?? '').replace(/,$/, '').replace(/^"|"$/g, '');
  });
}

async function embeddingThroughput(modelDir: string): Promise<{ textsPerSecond: number; tokensPerSecond: number; loadMs: number }> {
  const lines = fs.readFileSync(sharedPath('logs', 'Hadoop', 'Hadoop_2k.log'), 'utf8').split('\n').filter((line) => line.length > 0);
  const loadStarted = performance.now();
  // A fresh embedder, so nothing is served from the cache.
  const embedder = await loadOnnxEmbedder(modelDir, { maxTokens: 64 });
  const loadMs = performance.now() - loadStarted;
  const tokenizer = loadTokenizer(resolveModelFolder(modelDir));
  const modelTokens = lines.reduce((sum, line) => sum + tokenizer.encode(line, 64).length, 0);
  const started = performance.now();
  await embedder.embed(lines);
  const seconds = (performance.now() - started) / 1000;
  return { textsPerSecond: lines.length / seconds, tokensPerSecond: modelTokens / seconds, loadMs };
}

async function windowBudgetTimes(): Promise<number[]> {
  const names = trajectoryNames();
  const longest = names.slice(0, 10).map((name) => ({ name, turns: turnRequests(loadTrajectory(name)) })).sort((a, b) => b.turns.length - a.turns.length)[0]!;
  const largest = Math.max(...longest.turns.map((body) => tokens.countRequest(parseRequest(body))));
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const pipeline = new Pipeline([createWindowBudget()], { options: { window_budget: { maxTokens: Math.floor(largest * 0.5) } } }, { stash, tokens });
  const times: number[] = [];
  for (const body of longest.turns) {
    const result = await pipeline.run(parseRequest(body));
    times.push(result.decisions[0]!.durationMs);
  }
  return times;
}

/** Replays trajectories through a pipeline of one strategy (a fresh pipeline and stash per trajectory). */
async function replayAlone(limit: number, makePipeline: (stash: Stash) => Pipeline): Promise<Record<string, string | number>> {
  const names = trajectoryNames().slice(0, limit);
  let tokensBefore = 0;
  let tokensAfter = 0;
  let costBefore = 0;
  let costAfter = 0;
  let requests = 0;
  let stable = 0;
  let lossless = 0;
  let overBudget = 0;
  for (const name of names) {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const pipeline = makePipeline(stash);
    const summary = await replay(pipeline, stash, turnRequests(loadTrajectory(name)), tokens);
    tokensBefore += summary.tokensBefore;
    tokensAfter += summary.tokensAfter;
    costBefore += summary.cachedCostBefore;
    costAfter += summary.cachedCostAfter;
    requests += summary.turns.length;
    stable += summary.prefixStableTurns;
    lossless += summary.losslessTurns;
    overBudget += summary.turns.filter((turn) => turn.decisions[0]?.action === 'over-budget' || / still exceeds /.test(turn.decisions[0]?.reason ?? '')).length;
  }
  return {
    trajectories: names.length,
    requests,
    tokensSaved: percent(tokensBefore - tokensAfter, tokensBefore),
    costSaved: percent(costBefore - costAfter, costBefore),
    stable: percent(stable, requests),
    lossless: percent(lossless, requests),
    overBudget,
  };
}

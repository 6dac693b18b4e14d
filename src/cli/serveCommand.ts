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
import { createGateway, DecisionsFile, DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_GATEWAY_PORT, DEFAULT_MAX_BODY_BYTES, DEFAULT_OPENAI_BASE_URL, TenantOptimizer, type FetchLike, type Gateway, type GatewayOptimizer } from '../gateway';
import { CliError, parseOptions, type CliCommand, type CliIo } from './io';
import { cliStrategyEnvironment, positiveInteger, shareOption, strategySwitches } from './optimizeCommand';
import { defaultStashDirectory } from './stashDirectory';
import { openGatewayStores, parseStoreOption, redact, type GatewayStores, type StoreSpec } from '../gateway/gatewayStores';
import { OptimizerPool } from '../gateway/optimizerPool';
import { PooledOptimizer } from '../gateway/pooledOptimizer';
import { Admission } from '../gateway/admission';

export const SERVE_USAGE =
  'serve [--host 127.0.0.1] [--port 8787] [--openai-base-url URL] [--anthropic-base-url URL] [--stash DIR | --store DIR|redis://HOST:6379] [--token T] [--max-body-mb N] [--decisions FILE] [--retrieve-rounds N] [--enable ids] [--disable ids] [--off] [--time-limit MS] [--rewrite-share 0-1] [--workers N] [--deadline-ms MS] [--max-queue N] [--max-body-memory-mb N] [--store-max-mb N] [--quiet]';

const SPEC = {
  host: true, port: true, 'openai-base-url': true, 'anthropic-base-url': true, stash: true, token: true, 'max-body-mb': true, decisions: true,
  'retrieve-rounds': true, enable: true, disable: true, off: false, 'time-limit': true, 'rewrite-share': true, 'embedding-model': true, quiet: false,
  store: true, workers: true, 'deadline-ms': true, 'max-queue': true, 'max-body-memory-mb': true, 'store-max-mb': true,
};

/**
 * Longest an optimization may take, its wait for a worker included, before the request goes
 * out as it came. A warm turn takes milliseconds and a cold 5 MB conversation about a second
 * on this project's 2-core machine (test/bench/gatewayLoad.bench.ts): the deadline only ends
 * what has gone wrong, and bounds what any request can add.
 */
export const DEFAULT_DEADLINE_MS = 2500;
/** Optimizations waiting for a worker before a request gets 429. */
export const DEFAULT_MAX_QUEUE = 256;
/** Request bodies held at once before a request gets 503 (a body takes several times its size once parsed). */
export const DEFAULT_MAX_BODY_MEMORY_BYTES = 512 * 1024 * 1024;
/** How often the store is probed for /metrics and the log, in ms. */
const STORE_PROBE_INTERVAL_MS = 5_000;

/** A running `herald serve`. */
export interface RunningServe {
  readonly gateway: Gateway;
  readonly port: number;
  /** The optimizer workers, when the pipeline runs on them. */
  readonly pool?: OptimizerPool;
  /** Stops the gateway, its workers and its store connection. */
  stop(): Promise<void>;
}

/** Starts the gateway the arguments describe (the command waits for a signal; tests call this directly). */
export async function startServe(args: readonly string[], io: CliIo, overrides: { fetch?: FetchLike } = {}): Promise<RunningServe> {
  const { options, positional } = parseOptions(args, SPEC);
  if (positional.length > 0) throw new CliError(`herald serve: unexpected argument "${positional[0]}"`);
  const port = options.port === undefined ? DEFAULT_GATEWAY_PORT : portOption(options.port);
  const maxBodyBytes = options['max-body-mb'] === undefined ? DEFAULT_MAX_BODY_BYTES : positiveInteger(options['max-body-mb'], '--max-body-mb') * 1024 * 1024;
  const retrieveRounds = options['retrieve-rounds'] === undefined ? 4 : roundsOption(options['retrieve-rounds']);
  const enabled = strategySwitches(options.enable, options.disable);
  const timeLimitMs = options['time-limit'] === undefined ? undefined : positiveInteger(options['time-limit'], '--time-limit');
  const rewriteShare = options['rewrite-share'] === undefined ? undefined : shareOption(options['rewrite-share'], '--rewrite-share');
  const token = typeof options.token === 'string' ? options.token : process.env.HERALD_GATEWAY_TOKEN;
  const quiet = options.quiet === true;

  const logger = new LineLogger(io, quiet);
  const workers = options.workers === undefined ? Math.max(1, os.availableParallelism()) : countOption(options.workers, '--workers', 0, 64);
  const deadlineMs = options['deadline-ms'] === undefined ? DEFAULT_DEADLINE_MS : positiveInteger(options['deadline-ms'], '--deadline-ms');
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
  const tokens = new TokenCounter();
  const embeddingModel = typeof options['embedding-model'] === 'string' ? options['embedding-model'] : undefined;
  const config = { enabled, ...(timeLimitMs ? { timeLimitMs } : {}), ...(rewriteShare !== undefined ? { cachedRewriteMinSavedShare: rewriteShare } : {}) };
  let pool: OptimizerPool | undefined;
  let optimizer: GatewayOptimizer;
  if (workers > 0 && options.off !== true) {
    pool = new OptimizerPool({ size: workers, logger, setup: { store: spec, limits, key: stores.key, config, assetsFolder: __dirname, ...(embeddingModel ? { embeddingModelDir: embeddingModel } : {}) } });
    optimizer = new PooledOptimizer({ pool, tokens, stash: stores.stash, deadlineMs });
  } else {
    const inProcess = new TenantOptimizer({
      strategies: createStrategies({ ...cliStrategyEnvironment(embeddingModel), responseCache: stores.responseCache }),
      config,
      stash: stores.stash,
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
  let gateway: Gateway;
  try {
    gateway = createGateway({
      host: typeof options.host === 'string' ? options.host : undefined,
      port,
      openaiBaseUrl: typeof options['openai-base-url'] === 'string' ? options['openai-base-url'] : DEFAULT_OPENAI_BASE_URL,
      anthropicBaseUrl: typeof options['anthropic-base-url'] === 'string' ? options['anthropic-base-url'] : DEFAULT_ANTHROPIC_BASE_URL,
      token,
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
      ...(overrides.fetch ? { fetch: overrides.fetch } : {}),
    });
  } catch (error) {
    await pool?.close();
    await stores.close();
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
    throw new CliError(`herald serve: cannot listen on ${typeof options.host === 'string' ? options.host : '127.0.0.1'}:${port} (${describeError(error)}); pick another --port`);
  }
  const timer = setInterval(() => void probeStore(), STORE_PROBE_INTERVAL_MS);
  timer.unref();
  const openai = typeof options['openai-base-url'] === 'string' ? options['openai-base-url'] : DEFAULT_OPENAI_BASE_URL;
  const anthropic = typeof options['anthropic-base-url'] === 'string' ? options['anthropic-base-url'] : DEFAULT_ANTHROPIC_BASE_URL;
  io.stdout(`Herald gateway on ${gateway.url()} — OpenAI clients: ${gateway.url()}/v1 (→ ${openai}), Anthropic clients: ${gateway.url()} (→ ${anthropic})${options.off === true ? '; optimizer off' : ''}; state in ${storeName}${pool ? `; ${workers} optimizer workers, deadline ${deadlineMs} ms` : ''}\n`);
  return {
    gateway,
    port: listening,
    pool,
    async stop() {
      clearInterval(timer);
      await gateway.close();
      await pool?.close();
      await decisions?.flush();
      await stores.close();
    },
  };
}

export const serveCommand: CliCommand = async (args, io) => {
  const running = await startServe(args, io);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.stop();
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
  return { tokens: optimizer.tokens, optimize: undefined, afterResponse: async () => undefined, retrieve: (handle: string) => optimizer.retrieve(handle) };
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

/** One line per event on stderr: what the gateway did, never what a request carried. */
class LineLogger implements Logger {
  constructor(private readonly io: CliIo, private readonly quiet: boolean) {}

  info(_code: string, message: string): void {
    if (!this.quiet) this.io.stderr(`herald: ${message.replace(/^Herald: /, '')}\n`);
  }

  warn(code: string, message: string): void {
    this.io.stderr(`herald: ${code}: ${message.replace(/^Herald: /, '')}\n`);
  }

  error(code: string, message: string): void {
    this.io.stderr(`herald: ${code}: ${message.replace(/^Herald: /, '')}\n`);
  }
}

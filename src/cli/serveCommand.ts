/**
 * `herald serve`: the local gateway for agents outside VS Code (Claude Code, Codex, Cline,
 * Roo Code, Continue, Aider, Copilot's bring-your-own-key models). One stash folder keeps the
 * originals, the memo and the pins, saved as the gateway runs and when it stops.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../core/ports';
import { createStrategies } from '../core/strategies';
import { TokenCounter } from '../core/tokens/tokenCounter';
import { describeError } from '../core/errors';
import { createGateway, DecisionsFile, DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_GATEWAY_PORT, DEFAULT_MAX_BODY_BYTES, DEFAULT_OPENAI_BASE_URL, TenantOptimizer, type FetchLike, type Gateway } from '../gateway';
import { CliError, parseOptions, type CliCommand, type CliIo } from './io';
import type { OptionSpec } from './optionSpec';
import { DISABLE_OPTION, EMBEDDING_MODEL_OPTION, ENABLE_OPTION, REWRITE_SHARE_OPTION, STASH_OPTION, TIME_LIMIT_OPTION } from './commonOptions';
import { cliStrategyEnvironment, positiveInteger, shareOption, strategySwitches } from './optimizeCommand';
import { defaultStashDirectory, openStashDirectory } from './stashDirectory';

/** `herald serve`'s options, one line each: the parser and `herald serve --help` read them. */
export const SERVE_OPTIONS = {
  host: { value: 'ADDRESS', help: 'the address to listen on (default 127.0.0.1; beyond loopback only with --token)' },
  port: { value: 'N', help: 'the port (default 8787; 0 picks a free one)' },
  'openai-base-url': { value: 'URL', help: 'where OpenAI requests go (default https://api.openai.com/v1)' },
  'anthropic-base-url': { value: 'URL', help: 'where Anthropic requests go (default https://api.anthropic.com)' },
  stash: STASH_OPTION,
  token: { value: 'T', help: 'clients beyond loopback must send x-herald-token: T (or $HERALD_GATEWAY_TOKEN)' },
  'max-body-mb': { value: 'N', help: 'larger request bodies get a 413 (default 32)' },
  decisions: { value: 'FILE', help: "append each request's record to FILE as one JSON line" },
  'retrieve-rounds': { value: 'N', help: 'most in-turn herald_retrieve rounds per request, 0 to 10 (default 4)' },
  enable: ENABLE_OPTION,
  disable: DISABLE_OPTION,
  off: { help: 'forward every request untouched (retrieval still answers)' },
  'time-limit': TIME_LIMIT_OPTION,
  'rewrite-share': REWRITE_SHARE_OPTION,
  'embedding-model': EMBEDDING_MODEL_OPTION,
  quiet: { help: 'print warnings and errors only' },
} satisfies OptionSpec;

/** How often the memo and pins are saved while the gateway runs, in ms. */
const SAVE_INTERVAL_MS = 30_000;

/** A running `herald serve`. */
export interface RunningServe {
  readonly gateway: Gateway;
  readonly port: number;
  /** Stops the gateway and saves the stash folder's memo and pins. */
  stop(): Promise<void>;
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

  const logger = new LineLogger(io, quiet);
  const directoryName = String(options.stash ?? defaultStashDirectory());
  let directory;
  try {
    directory = openStashDirectory(directoryName, logger);
  } catch (error) {
    throw new CliError(`herald serve: the stash folder ${directoryName} cannot be used (${describeError(error)}); give another with --stash DIR`);
  }
  const tokens = new TokenCounter();
  const optimizer = new TenantOptimizer({
    strategies: createStrategies(cliStrategyEnvironment(typeof options['embedding-model'] === 'string' ? options['embedding-model'] : undefined)),
    config: { enabled, ...(timeLimitMs ? { timeLimitMs } : {}), ...(rewriteShare !== undefined ? { cachedRewriteMinSavedShare: rewriteShare } : {}) },
    stash: directory.stash,
    memo: directory.memo,
    state: directory.state,
    tokens,
    logger,
  });
  const decisions = typeof options.decisions === 'string' ? new DecisionsFile(options.decisions, (message) => logger.warn('decisions-not-written', message)) : undefined;
  let dirty = false;
  const save = (): void => {
    if (!dirty) return;
    dirty = false;
    try {
      directory.save();
    } catch (error) {
      logger.warn('stash-memo-not-saved', `Herald: the memo in ${directoryName} could not be saved (${describeError(error)}); the next start decides afresh`);
    }
  };
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
      optimizer: options.off === true ? optimizerOff(optimizer) : optimizer,
      tenantKey: fs.readFileSync(path.join(directoryName, 'key')),
      logger,
      onRecord: (record) => {
        dirty = true;
        decisions?.append(record);
      },
      ...(overrides.fetch ? { fetch: overrides.fetch } : {}),
    });
  } catch (error) {
    throw new CliError(describeError(error).replace(/^Herald:/, 'herald serve:'));
  }
  let listening: number;
  try {
    listening = await gateway.listen();
  } catch (error) {
    throw new CliError(`herald serve: cannot listen on ${typeof options.host === 'string' ? options.host : '127.0.0.1'}:${port} (${describeError(error)}); pick another --port`);
  }
  const timer = setInterval(save, SAVE_INTERVAL_MS);
  timer.unref();
  const openai = typeof options['openai-base-url'] === 'string' ? options['openai-base-url'] : DEFAULT_OPENAI_BASE_URL;
  const anthropic = typeof options['anthropic-base-url'] === 'string' ? options['anthropic-base-url'] : DEFAULT_ANTHROPIC_BASE_URL;
  io.stdout(`Herald gateway on ${gateway.url()} — OpenAI clients: ${gateway.url()}/v1 (→ ${openai}), Anthropic clients: ${gateway.url()} (→ ${anthropic})${options.off === true ? '; optimizer off' : ''}\n`);
  return {
    gateway,
    port: listening,
    async stop() {
      clearInterval(timer);
      await gateway.close();
      await decisions?.flush();
      dirty = true;
      save();
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

/** The optimizer with the pipeline switched off: requests go out as they came, retrieval still answers. */
function optimizerOff(optimizer: TenantOptimizer) {
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

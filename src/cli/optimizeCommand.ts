/** `herald optimize`: a request on stdin, the optimized request on stdout, decisions to a file. */
import { parseRequest, serializeRequest, type RequestFormat } from '../core/chat';
import { Pipeline } from '../core/pipeline';
import { RecordingLogger } from '../core/ports';
import { createStrategies, implementedStrategyIds, STRATEGY_ORDER, type StrategyEnvironment } from '../core/strategies';
import { bundledEnvironment } from '../core/strategies/environment';
import { CliError, parseOptions, type CliCommand } from './io';
import type { OptionDeclaration, OptionSpec } from './optionSpec';
import { DISABLE_OPTION, EMBEDDING_MODEL_OPTION, ENABLE_OPTION, FORMAT_OPTION, REWRITE_SHARE_OPTION, STASH_OPTION, TIME_LIMIT_OPTION } from './commonOptions';
import { readJsonInput } from './readJson';
import { writeFileAtomic } from '../core/files';
import { defaultStashDirectory, openStashDirectory } from './stashDirectory';
import { describeError } from '../core/errors';

/** `--deadline MS`: the whole pipeline's budget on one request (optimize and serve). */
export const DEADLINE_OPTION: OptionDeclaration = { value: 'MS', help: 'the whole pipeline\'s budget on one request in ms; past it the request goes out as it came (default 5000)' };

/** `herald optimize`'s options: the parser and `herald optimize --help` read them. */
export const OPTIMIZE_OPTIONS = {
  format: FORMAT_OPTION,
  enable: ENABLE_OPTION,
  disable: DISABLE_OPTION,
  'window-tokens': { value: 'N', help: "the target's input window in tokens (window_budget crops a request over it)" },
  stash: STASH_OPTION,
  decisions: { value: 'FILE', help: "write every strategy's decision as JSON to FILE" },
  'embedding-model': EMBEDDING_MODEL_OPTION,
  'time-limit': TIME_LIMIT_OPTION,
  deadline: DEADLINE_OPTION,
  'rewrite-share': REWRITE_SHARE_OPTION,
} satisfies OptionSpec;

/** A command-line run is one request: the OCR worker may stop as soon as the last image is read, so the process can exit. */
const CLI_OCR_IDLE_MS = 250;

/**
 * What the strategies get from the command line: the files a build put beside `dist/cli.js`,
 * found the way the extension host finds them in its `dist/` (none when run from source: the
 * defaults read node_modules), and the embedding model folder given with `--embedding-model`.
 */
export function cliStrategyEnvironment(embeddingModelDir?: string): StrategyEnvironment {
  const bundled = bundledEnvironment(__dirname);
  return { ...bundled, ocr: { ...bundled.ocr, idleMs: CLI_OCR_IDLE_MS }, ...(embeddingModelDir ? { embeddingModelDir } : {}) };
}

export const optimizeCommand: CliCommand = async (args, io) => {
  const { options, positional } = parseOptions(args, OPTIMIZE_OPTIONS);
  if (positional.length > 0) throw new CliError(`herald optimize: unexpected argument "${positional[0]}" (the request is read from stdin)`);
  const format = formatOption(options.format);
  const enabled = strategySwitches(options.enable, options.disable);
  const windowTokens = options['window-tokens'] === undefined ? undefined : positiveInteger(options['window-tokens'], '--window-tokens');
  const embeddingModel = typeof options['embedding-model'] === 'string' ? options['embedding-model'] : undefined;
  // Each strategy's time limit (ms): a first run that starts the OCR engine or an embedding model may need more than the default.
  const timeLimitMs = options['time-limit'] === undefined ? undefined : positiveInteger(options['time-limit'], '--time-limit');
  // The whole pipeline's budget (ms): past it the request is printed as it came, the decisions saying so.
  const deadlineMs = options.deadline === undefined ? undefined : positiveInteger(options.deadline, '--deadline');
  // The least share of a cached history output a rewrite must remove (see core/pipeline/cacheEconomics.ts).
  const rewriteShare = options['rewrite-share'] === undefined ? undefined : shareOption(options['rewrite-share'], '--rewrite-share');
  const body = await readJsonInput(io);
  const request = parseRequestOrFail(body, format);

  const logger = new RecordingLogger();
  const directoryName = String(options.stash ?? defaultStashDirectory());
  let directory;
  try {
    directory = openStashDirectory(directoryName, logger);
  } catch (error) {
    // Fail-open: without a stash nothing can be elided safely, so the request goes out as it came.
    io.stderr(`herald: stash-unavailable: the stash folder ${directoryName} cannot be used (${describeError(error)}); the request is printed unchanged\n`);
    io.stdout(JSON.stringify(serializeRequest(request)) + '\n');
    return 0;
  }
  const pipeline = new Pipeline(createStrategies(cliStrategyEnvironment(embeddingModel)), { enabled, ...(timeLimitMs ? { timeLimitMs } : {}), ...(deadlineMs ? { deadlineMs } : {}), ...(rewriteShare !== undefined ? { cachedRewriteMinSavedShare: rewriteShare } : {}) }, { stash: directory.stash, memo: directory.memo, state: directory.state, logger });
  let result;
  try {
    result = await pipeline.run(request, { windowTokens });
  } catch (error) {
    // Fail-open: the memo and pins could not be read or written (the folder's state/), so nothing was decided.
    for (const line of logger.lines) if (line.level !== 'info') io.stderr(`herald: ${line.code}: ${line.message.replace(/^Herald: /, '').split('\n')[0]}\n`);
    io.stderr(`herald: pipeline-failed: ${describeError(error).replace(/^Herald: /, '')}; the request is printed unchanged\n`);
    io.stdout(JSON.stringify(serializeRequest(request)) + '\n');
    return 0;
  }
  directory.sites.record(result.request, result.elisions);
  try {
    directory.save();
  } catch (error) {
    logger.warn('stash-memo-not-saved', `Herald: the memo in ${directoryName} could not be saved (${describeError(error)}); the next turn is decided afresh`);
  }

  const report = {
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    durationMs: Math.round(result.durationMs * 100) / 100,
    replayedMessages: result.replayedMessages,
    decisions: result.decisions,
    problems: logger.lines,
  };
  if (typeof options.decisions === 'string') writeFileAtomic(options.decisions, JSON.stringify(report, null, 2) + '\n');
  // Problems are one line each on stderr, so a script sees a fault without asking for decisions.
  for (const line of logger.lines) if (line.level !== 'info') io.stderr(`herald: ${line.code}: ${line.message.replace(/^Herald: /, '').split('\n')[0]}\n`);
  io.stdout(JSON.stringify(serializeRequest(result.request)) + '\n');
  return 0;
};

export function formatOption(value: string | true | undefined): RequestFormat | undefined {
  if (value === undefined) return undefined;
  if (value === 'openai' || value === 'anthropic' || value === 'responses') return value;
  throw new CliError(`herald: unknown format "${String(value)}" (use openai, anthropic or responses)`);
}

export function parseRequestOrFail(body: unknown, format?: RequestFormat) {
  try {
    return parseRequest(body, format);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message.replace(/^Herald:/, 'herald:') : String(error));
  }
}

export function strategySwitches(enable: string | true | undefined, disable: string | true | undefined): Record<string, boolean> {
  const lists: [string[], boolean][] = [[splitIds(enable), true], [splitIds(disable), false]];
  const implemented = new Set<string>(implementedStrategyIds());
  // Unknown ids first, so a typo is reported as such even next to a valid id.
  for (const [ids] of lists) {
    const unknown = ids.find((id) => !(STRATEGY_ORDER as readonly string[]).includes(id));
    if (unknown) throw new CliError(`herald: unknown strategy id "${unknown}" (known: ${STRATEGY_ORDER.join(', ')})`);
  }
  const switches: Record<string, boolean> = {};
  for (const [ids, on] of lists) {
    for (const id of ids) {
      if (!implemented.has(id)) throw new CliError(`herald: strategy "${id}" is not available in this build`);
      switches[id] = on;
    }
  }
  return switches;
}

function splitIds(list: string | true | undefined): string[] {
  return list === undefined ? [] : String(list).split(',').map((item) => item.trim()).filter(Boolean);
}

export function positiveInteger(value: string | true, name: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new CliError(`herald: ${name} takes a positive whole number, not "${String(value)}"`);
  return number;
}

export function shareOption(value: string | true, name: string): number {
  const number = Number(value);
  if (value === true || !Number.isFinite(number) || number < 0 || number > 1) throw new CliError(`herald: ${name} takes a number from 0 to 1, not "${String(value)}"`);
  return number;
}

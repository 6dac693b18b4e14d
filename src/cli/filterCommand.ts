/**
 * `herald filter`: a filter request (question + candidates) on stdin, the report as JSON on
 * stdout. Scored by words and the shipped retrieval model (`--lexical`: words only) unless a
 * judge endpoint is named; the quality check then runs after the answer is printed and tunes
 * the agent's threshold.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { filter, FilterInputError, FileThresholdStore, runQualityCheck, ScoringUnavailableError } from '../core/filter';
import { createHttpModel } from '../core/models/httpModel';
import type { ModelPort } from '../core/ports';
import { CliError, parseOptions, type CliCommand } from './io';
import type { OptionSpec } from './optionSpec';
import { JUDGE_KIND_OPTION, JUDGE_MODEL_OPTION, JUDGE_URL_OPTION, LEXICAL_OPTION } from './commonOptions';
import { readJsonInput } from './readJson';
import { describeError } from '../core/errors';
import { shippedEmbedder } from './shippedModel';

/** `herald filter`'s options: the parser and `herald filter --help` read them. */
export const FILTER_OPTIONS = {
  'judge-url': JUDGE_URL_OPTION,
  'judge-model': JUDGE_MODEL_OPTION,
  'judge-kind': JUDGE_KIND_OPTION,
  thresholds: { value: 'FILE', help: "each agent's learned threshold (default ~/.herald/thresholds.json)" },
  'no-quality-check': { help: "skip the judge's after-the-answer check that tunes the agent's threshold" },
  pretty: { help: 'indent the JSON' },
  lexical: LEXICAL_OPTION,
} satisfies OptionSpec;

export const filterCommand: CliCommand = async (args, io) => {
  const arrivedAt = performance.now();
  const { options, positional } = parseOptions(args, FILTER_OPTIONS);
  if (positional.length > 0) throw new CliError(`herald filter: unexpected argument "${positional[0]}" (the request is read from stdin)`);
  const judge = judgeFromOptions(options);
  const body = await readJsonInput(io);
  const thresholds = new FileThresholdStore(typeof options.thresholds === 'string' ? options.thresholds : path.join(os.homedir(), '.herald', 'thresholds.json'));
  const indent = options.pretty === true ? 2 : undefined;
  try {
    // A judge scores instead of the model; without one, words and meaning (the shipped model).
    const embedder = judge ? undefined : await shippedEmbedder('filter', options.lexical === true, (line) => io.stderr(`${line}\n`));
    const result = await filter(body, { judge, thresholds, arrivedAt, ...(embedder ? { embedder } : {}) });
    io.stdout(JSON.stringify(result, null, indent) + '\n');
    const agent = typeof body === 'object' && body !== null ? (body as { agent?: unknown }).agent : undefined;
    if (options['no-quality-check'] !== true && typeof agent === 'string') {
      try {
        await runQualityCheck(result, agent, judge, thresholds);
      } catch (error) {
        io.stderr(`herald filter: quality check failed (threshold unchanged): ${describeError(error)}\n`);
      }
    }
    return 0;
  } catch (error) {
    if (error instanceof FilterInputError || error instanceof ScoringUnavailableError) {
      const field = error instanceof FilterInputError ? { field: error.field } : {};
      io.stdout(JSON.stringify({ error: { code: error.code, status: error.status, message: error.message, ...field } }, null, indent) + '\n');
      io.stderr(error.message + '\n');
      return error instanceof FilterInputError ? 2 : 3;
    }
    throw error;
  }
};

function judgeFromOptions(options: Record<string, string | true>): ModelPort | undefined {
  const url = options['judge-url'];
  if (url === undefined) return undefined;
  const model = options['judge-model'];
  if (typeof model !== 'string') throw new CliError('herald filter: --judge-url needs --judge-model');
  const kind = options['judge-kind'] ?? 'openai';
  if (kind !== 'openai' && kind !== 'anthropic') throw new CliError(`herald filter: unknown --judge-kind "${String(kind)}" (use openai or anthropic)`);
  return createHttpModel({ kind, baseUrl: String(url), model, apiKey: process.env.HERALD_JUDGE_API_KEY });
}

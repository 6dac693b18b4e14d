/**
 * `herald context --library DIR --task "…"`: the get_context bundle for a task, as Markdown
 * (or the whole result as JSON with --json). Pages are ranked by words: on the library the shipped
 * retrieval model never beat words alone on held-out tasks, so it ranks only with `--model`
 * (`--lexical`, words only, is the default and still accepted). A judge endpoint, when named,
 * also makes the plan.
 */
import * as fs from 'node:fs';
import { getContext, loadLibrary, type GetContextInput } from '../core/knowledge';
import { createHttpModel } from '../core/models/httpModel';
import type { ModelPort } from '../core/ports';
import { CliError, parseOptions, type CliCommand } from './io';
import type { OptionSpec } from './optionSpec';
import { JUDGE_KIND_OPTION, JUDGE_MODEL_OPTION, JUDGE_URL_OPTION } from './commonOptions';
import { describeError } from '../core/errors';
import { shippedEmbedder } from './shippedModel';

/** `herald context`'s options: the parser and `herald context --help` read them. */
export const CONTEXT_OPTIONS = {
  library: { value: 'DIR', help: 'the library folder (default .herald)' },
  task: { value: '"…"', help: 'what you are about to do (required)' },
  'max-tokens': { value: 'N', help: "the bundle's token budget, 1000 to 30000" },
  pack: { value: 'P', help: 'start from this pack' },
  tags: { value: 'a,b', help: 'only pages with these tags' },
  folder: { value: 'F', help: 'only pages in this folder' },
  json: { help: 'print the whole result as JSON instead of the Markdown bundle' },
  index: { value: 'FILE', help: "where the library's search index is kept" },
  lexical: { help: 'rank pages by words only (the default; kept for scripts that pass it)' },
  model: { help: "also rank by the shipped retrieval model's meaning (on held-out tasks it did not beat words alone)" },
  'judge-url': JUDGE_URL_OPTION,
  'judge-model': JUDGE_MODEL_OPTION,
  'judge-kind': JUDGE_KIND_OPTION,
  'judge-mode': { value: 'off|shadow|gate', help: "whether the judge's verdicts are only recorded (shadow) or decide (gate)" },
} satisfies OptionSpec;

export const contextCommand: CliCommand = async (args, io) => {
  try {
    const { options, positional } = parseOptions(args, CONTEXT_OPTIONS);
    if (positional.length > 0) throw new CliError(`herald context: unexpected argument "${positional[0]}" (put the task in --task "…")`);
    const library = stringOption(options, 'library') ?? '.herald';
    const task = stringOption(options, 'task');
    if (task === undefined || task.trim() === '') throw new CliError('herald context: --task "…" is required');
    if (!fs.existsSync(library) || !fs.statSync(library).isDirectory()) throw new CliError(`herald context: library folder "${library}" does not exist`);
    const input: GetContextInput = { task };
    const maxTokens = stringOption(options, 'max-tokens');
    if (maxTokens !== undefined) {
      if (!/^\d+$/.test(maxTokens) || Number(maxTokens) < 1000 || Number(maxTokens) > 30000) throw new CliError(`herald context: --max-tokens must be a whole number from 1000 to 30000, not "${maxTokens}"`);
      input.max_tokens = Number(maxTokens);
    }
    input.pack = stringOption(options, 'pack');
    input.folder = stringOption(options, 'folder');
    const tags = stringOption(options, 'tags');
    if (tags !== undefined) {
      input.tags = tags.split(',').map((tag) => tag.trim()).filter((tag) => tag.length > 0);
      if (input.tags.length === 0) throw new CliError('herald context: --tags needs at least one tag, e.g. --tags pricing,email');
    }
    if (options.model === true && options.lexical === true) throw new CliError('herald context: --model and --lexical contradict each other (words only is the default; --model adds the shipped model)');
    const judgeMode = stringOption(options, 'judge-mode');
    if (judgeMode !== undefined && judgeMode !== 'off' && judgeMode !== 'shadow' && judgeMode !== 'gate') throw new CliError(`herald context: unknown --judge-mode "${judgeMode}" (use off, shadow or gate)`);
    const model = modelFromOptions(options);
    const warnings: string[] = [];
    const logger = { info() {}, warn: (_code: string, message: string) => void warnings.push(message), error: (_code: string, message: string) => void warnings.push(message) };
    let result;
    try {
      const loaded = loadLibrary(library, { logger, indexFile: stringOption(options, 'index') });
      // Words only unless --model asks for the shipped model's meaning ranking too.
      const embedder = await shippedEmbedder('context', options.model !== true, (line) => warnings.push(line));
      result = await getContext(loaded, input, { model, judgeMode, logger, ...(embedder ? { embedder, options: { shippedModelMeaning: true } } : {}) });
    } catch (error) {
      throw new CliError(`herald context: ${describeError(error).replace(/^Herald: /, '')}`);
    }
    for (const warning of warnings) io.stderr(`${warning}\n`);
    io.stdout(options.json === true ? `${JSON.stringify(result, null, 2)}\n` : result.markdown);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`${error.message.split('\n')[0]}\n`);
      return error.exitCode;
    }
    throw error;
  }
};

function stringOption(options: Record<string, string | true>, name: string): string | undefined {
  const value = options[name];
  if (value === true) throw new CliError(`herald context: option --${name} needs a value`);
  return value;
}

function modelFromOptions(options: Record<string, string | true>): ModelPort | undefined {
  const url = stringOption(options, 'judge-url');
  if (url === undefined) return undefined;
  const model = stringOption(options, 'judge-model');
  if (model === undefined) throw new CliError('herald context: --judge-url needs --judge-model');
  const kind = stringOption(options, 'judge-kind') ?? 'openai';
  if (kind !== 'openai' && kind !== 'anthropic') throw new CliError(`herald context: unknown --judge-kind "${kind}" (use openai or anthropic)`);
  return createHttpModel({ kind, baseUrl: url, model, apiKey: process.env.HERALD_JUDGE_API_KEY });
}

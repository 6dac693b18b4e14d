/**
 * command_digest: recognised command output keeps the command's verdict and drops the
 * scroll. A test run keeps its failures and the count line, grep hits are bucketed by file,
 * logs fold repeated lines into counted ones (`[×21]`); the shared cleaners in `core/content`
 * do the work. The original is one `retrieve` away.
 *
 * Routing: the command that produced the output (a tool call's command, or the agent's bash
 * block before pasted output) decides when the request shows it; a grep whose output does not
 * look like hits is left alone rather than summarised away. Without a command, the output's
 * shape decides. Deterministic and question-independent, so it decides fresh output on arrival
 * (`touchesFresh`): the digest is what the model reads this turn and what the provider caches,
 * and the pipeline replays that arrival form when the output becomes history. Terminal output
 * hard-wrapped at the terminal's width is joined back first, so no failure line is cut.
 */
import type { z } from 'zod';
import { cleanContent, detectContentFormat, type ContentFormat } from '../content';
import { queryForLatestTurn, queryForPasted } from '../relevance/turnQuery';
import { asksAboutFailures } from '../relevance/diagnosticLines';
import { definitionHitsOf } from '../content/grepDefinitions';
import { failureEventsOf } from '../content/logFailureEvents';
import { isMixedData } from '../content/dataLines';
import type { ToolOutputSegment } from '../chat/toolOutput';
import type { ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import type { StrategyEnvironment } from './environment';
import { elideCleaned, readableText } from './shared/cleanedOutput';
import { numberOption } from './shared/options';
import { SegmentEdits } from './shared/segmentEdits';
import { editableSegments, isUserPaste } from './shared/segmentSelection';
import { optionDefaults } from '../pipeline/optionSchema';
import { COMMAND_DIGEST_OPTIONS } from './options/commandDigestOptions';

/** Options of command_digest, as its schema in `options/` declares them (type, default, bounds, description). */
export type CommandDigestOptions = Readonly<z.output<typeof COMMAND_DIGEST_OPTIONS>>;

/** The defaults of every command_digest option, from its schema in options/. */
export const COMMAND_DIGEST_DEFAULTS: CommandDigestOptions = optionDefaults(COMMAND_DIGEST_OPTIONS);

/** No turn query: a pasted segment's own question is all that counts here. */
const NO_QUERY = { text: '', source: 'none' } as const;

/** The formats whose verdict a digest keeps; the rest is context_compression's. */
const DIGESTED: ReadonlySet<ContentFormat> = new Set(['test-output', 'grep', 'log']);

const LABELS: Readonly<Partial<Record<ContentFormat, string>>> = { 'test-output': 'test run digest', grep: 'grep digest', log: 'log digest' };
/** What each digest keeps, said in its marker. */
const KEPT: Readonly<Partial<Record<ContentFormat, string>>> = {
  'test-output': 'every failure with its message and location, and the counts',
  grep: 'the hits by file, repeats folded',
  log: 'every event once with its count, every warning and error',
};

/** Builds the command_digest strategy; it needs nothing from the host. */
export function createCommandDigest(_environment: StrategyEnvironment = {}): Strategy {
  return {
    id: 'command_digest',
    defaultEnabled: true,
    kind: 'transform',
    touchesFresh: true,
    defaults: { ...COMMAND_DIGEST_DEFAULTS },
    optionSchema: COMMAND_DIGEST_OPTIONS,
    apply: (request, context) => digest(request, context, readOptions(context.options)),
  };
}

function readOptions(options: Readonly<Record<string, unknown>>): CommandDigestOptions {
  return { minChars: numberOption(options, 'minChars'), minSavedTokens: numberOption(options, 'minSavedTokens'), minSavedRatio: numberOption(options, 'minSavedRatio'), freshMinSavedRatio: numberOption(options, 'freshMinSavedRatio') };
}

function digest(request: ChatRequest, context: StrategyContext, options: CommandDigestOptions): StrategyResult {
  const edits = new SegmentEdits('command_digest', context);
  const counts: Record<string, number> = { 'test-output': 0, grep: 0, log: 0 };
  let turn: ReturnType<typeof queryForLatestTurn> | undefined;
  let logsToFailures = 0;
  let grepToDefinitions = 0;
  for (const segment of editableSegments(request, context, { includeFresh: true })) {
    context.deadline.check();
    if (segment.text.length < options.minChars) continue;
    const text = readableText(segment);
    // A paste mixing formats (logs, samples, spans) is no one format's: relevance_filter cuts it
    // for its question unit by unit. One format's paste is digested first, when that saves half
    // (measured on the workloads: the digest keeps more of a single-format paste's facts for less).
    if (isUserPaste(request, segment) && isMixedData(text.split('\n')) && queryForPasted(request, segment, NO_QUERY).source === 'user') continue;
    const format = routeOf({ text, command: segment.command });
    if (format === undefined) continue;
    let cleaned = cleanContent(text, { format, command: segment.command });
    let kept = KEPT[format];
    // A fresh log under a question about failures: its warnings and errors answer it (decided on arrival, with the question it arrived under).
    if (format === 'log' && cleaned.changed && segment.messageIndex >= context.freshStart && asksAboutFailures(queryForPasted(request, segment, (turn ??= queryForLatestTurn(request))).text)) {
      const failures = failureEventsOf(cleaned.text);
      if (failures) {
        cleaned = { ...cleaned, text: failures.text };
        kept = `every warning and error event with its count, for the question about failures; ${failures.quiet} quieter event lines left out`;
      }
    }
    // Fresh grep hits under a question about where a name is defined: the definitions answer it.
    if (format === 'grep' && segment.messageIndex >= context.freshStart) {
      const definitions = definitionHitsOf(text, queryForPasted(request, segment, (turn ??= queryForLatestTurn(request))).text);
      if (definitions !== undefined && definitions.text.length < cleaned.text.length) {
        cleaned = { ...cleaned, text: definitions.text, changed: true };
        kept = `the ${definitions.definitions} hit(s) that define the searched name with their context, and each file's count of the other ${definitions.uses}, for the question about a definition`;
      }
    }
    if (elideCleaned(edits, segment, cleaned, LABELS[format] ?? 'digest', { tokens: options.minSavedTokens, ratio: ratioFor(request, segment, context.freshStart, options) }, kept)) {
      counts[format] = (counts[format] ?? 0) + 1;
      if (kept !== KEPT[format] && format === 'log') logsToFailures++;
      if (kept !== KEPT[format] && format === 'grep') grepToDefinitions++;
    }
  }
  return edits.result(
    request,
    { action: 'command-output-digested', reason: `${edits.count} command outputs digested to their verdict (tests ${counts['test-output']}, grep ${counts.grep}, logs ${counts.log})` },
    { action: 'nothing-to-do', reason: 'no recognised test, grep or log output in the undecided history or the fresh input worth digesting' },
    { tests: counts['test-output'] ?? 0, grep: counts.grep ?? 0, logs: counts.log ?? 0, ...(logsToFailures > 0 ? { logsToFailures } : {}), ...(grepToDefinitions > 0 ? { grepToDefinitions } : {}) },
  );
}

/**
 * The least share a digest must save. A fresh tool output takes a modest one: its digest keeps
 * what it says. Bulk a person pasted under a question needs as much as history: a digest that
 * saves less leaves it to relevance_filter, which keeps every error line and what answers them.
 */
function ratioFor(request: ChatRequest, segment: ToolOutputSegment, freshStart: number, options: CommandDigestOptions): number {
  return segment.messageIndex >= freshStart && !isUserPaste(request, segment) ? options.freshMinSavedRatio : options.minSavedRatio;
}

/** The format to digest as, or undefined when the output is not a recognised command's. */
export function routeOf(segment: Pick<ToolOutputSegment, 'text' | 'command'>): ContentFormat | undefined {
  const byShape = detectContentFormat(segment.text);
  if (segment.command === undefined) return DIGESTED.has(byShape) ? byShape : undefined;
  const byCommand = detectContentFormat(segment.text, { command: segment.command });
  if (!DIGESTED.has(byCommand)) return undefined;
  // The command says grep but the output is not hits (an error, a count): leave it as it is.
  if (byCommand === 'grep' && byShape !== 'grep') return undefined;
  return byCommand;
}

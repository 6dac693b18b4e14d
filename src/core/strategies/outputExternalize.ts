/**
 * output_externalize: one giant tool output (by default over 50,000 characters) that is still
 * giant after the content-aware strategies (it runs after them) becomes a handle, its shape, a
 * few lines of orientation, every failure, error and anomaly it reports, and its last lines. The
 * failure lines are folded by kind with a count (143 FATAL lines of a few kinds stay in view as a
 * few lines), never a bare head and tail; a JSON payload lists its anomalous rows. The original is
 * one `retrieve` away, byte for byte.
 *
 * It rewrites the current turn's fresh input too: a giant payload costs the most on the turn it
 * arrives. The rewrite is a function of the output's own bytes, so when the message becomes
 * history the same replacement comes out again and the cached prefix holds. Outputs already
 * behind a marker are skipped, keeping retrieval one hop deep.
 */
import type { z } from 'zod';
import type { ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import type { Deadline } from '../pipeline/deadline';
import { countLines } from '../stash/marker';
import type { StrategyEnvironment } from './environment';
import { bookkeepingKey, isSevereLine } from '../content/bookkeeping';
import { lineSeverity } from '../content/severity';
import { lineTemplate, SlotCounts } from '../content/logTemplates';
import { cleanJson } from '../content/json';
import { isErrorLine } from '../relevance/diagnosticLines';
import { failureLines } from './shared/failure';
import { numberOption } from './shared/options';
import { SegmentEdits } from './shared/segmentEdits';
import { editableSegments } from './shared/segmentSelection';
import { describeShape } from './shared/shape';
import { optionDefaults } from '../pipeline/optionSchema';
import { OUTPUT_EXTERNALIZE_OPTIONS } from './options/outputExternalizeOptions';

/** Options of output_externalize, as its schema in `options/` declares them (type, default, bounds, description). */
export type OutputExternalizeOptions = Readonly<z.output<typeof OUTPUT_EXTERNALIZE_OPTIONS>>;

/** The defaults of every output_externalize option, from its schema in options/. */
export const OUTPUT_EXTERNALIZE_DEFAULTS: OutputExternalizeOptions = optionDefaults(OUTPUT_EXTERNALIZE_OPTIONS);

/** A head or tail line longer than this is cut: one minified line must not bring the bulk back. */
const MAX_PREVIEW_LINE = 300;
/** A failure line is shown whole up to this length, so a message is not cut in the middle. */
const MAX_FAILURE_LINE = 2_000;

/** Builds the output_externalize strategy; it needs nothing from the host. */
export function createOutputExternalize(_environment: StrategyEnvironment = {}): Strategy {
  return {
    id: 'output_externalize',
    defaultEnabled: true,
    kind: 'transform',
    touchesFresh: true,
    defaults: { ...OUTPUT_EXTERNALIZE_DEFAULTS },
    optionSchema: OUTPUT_EXTERNALIZE_OPTIONS,
    apply: (request, context) => externalize(request, context, readOptions(context.options)),
  };
}

function readOptions(options: Readonly<Record<string, unknown>>): OutputExternalizeOptions {
  return {
    maxChars: numberOption(options, 'maxChars'),
    headLines: numberOption(options, 'headLines'),
    tailLines: numberOption(options, 'tailLines'),
    previewChars: numberOption(options, 'previewChars'),
    maxFailureLines: numberOption(options, 'maxFailureLines'),
    failureChars: numberOption(options, 'failureChars'),
  };
}

function externalize(request: ChatRequest, context: StrategyContext, options: OutputExternalizeOptions): StrategyResult {
  const edits = new SegmentEdits('output_externalize', context);
  for (const segment of editableSegments(request, context, { includeFresh: true })) {
    context.deadline.check();
    if (segment.text.length <= options.maxChars) continue;
    const lines = countLines(segment.text);
    edits.elide({ segment, summary: `externalized ${segment.text.length} chars, ${lines} lines`, render: (marker) => render(marker, segment.text, options, context.deadline) });
  }
  return edits.result(
    request,
    { action: 'tool-output-externalized', reason: `tool outputs still over ${options.maxChars} characters were replaced by a handle, their shape, a few lines and every failure line they report` },
    { action: 'nothing-to-do', reason: `no tool output over ${options.maxChars} characters` },
  );
}

function render(marker: string, text: string, options: OutputExternalizeOptions, deadline: Deadline): string {
  const lines = text.split('\n');
  const budget = { chars: options.previewChars };
  const head = preview(lines.slice(0, options.headLines), budget);
  const tailStart = Math.max(head.length, lines.length - options.tailLines);
  const tail = preview(lines.slice(tailStart), budget);
  const hidden = lines.length - head.length - tail.length;
  const out = [marker, `shape: ${describeShape(text)}`, ...head];
  if (hidden > 0) out.push(`… ${hidden} lines not shown …`);
  out.push(...tail);
  out.push(...problems(text, lines, options, deadline));
  return out.join('\n');
}

/**
 * What the output reports as wrong: its failure, error and warning lines, each kind once with how
 * often it recurs (the count and the lines it spans), within the budget; for JSON, its anomalous
 * rows as the JSON cleaner keeps them. Empty when it reports nothing wrong.
 */
function problems(text: string, lines: readonly string[], options: OutputExternalizeOptions, deadline: Deadline): string[] {
  const json = /^\s*[[{]/.test(text) ? cleanJson(text) : undefined;
  if (json?.changed && json.text.length <= options.failureChars) return ['anomalous rows (the JSON by shape):', json.text];
  const kinds = new Map<string, ProblemKind>();
  lines.forEach((line, index) => {
    if (index % 512 === 0) deadline.check();
    if (!isProblemLine(line)) return;
    const key = bookkeepingKey(line);
    const kind = kinds.get(key);
    if (kind === undefined) kinds.set(key, { line, first: index, last: index, count: 1, severity: lineSeverity(line.length > MAX_FAILURE_LINE ? line.slice(0, MAX_FAILURE_LINE) : line) });
    else {
      kind.count++;
      kind.last = index;
    }
  });
  if (kinds.size === 0) return [];
  const total = [...kinds.values()].reduce((sum, kind) => sum + kind.count, 0);
  const out = [`failure, error and warning lines (${total}, ${kinds.size} distinct; most severe first, then the rarest):`];
  let chars = 0;
  let shown = 0;
  let listed = 0;
  // By severity (FATAL/SEVERE over ERROR over WARN over an INFO line that merely names the word),
  // then by novelty (the rarer kind first), then in file order: the budget goes to what matters most.
  // A tier with more kinds than the budget has room for is folded by template, every value listed
  // (the nodes a FATAL fired on), so no line of a more severe tier is crowded out.
  for (const severity of [3, 2, 1, 0]) {
    const tier = [...kinds.values()].filter((kind) => kind.severity === severity).sort((a, b) => a.count - b.count || a.first - b.first);
    if (tier.length === 0) continue;
    const single = tier.map((kind) => ({ text: entryOf(kind), kinds: 1 }));
    const room = single.length <= options.maxFailureLines - shown && single.reduce((sum, entry) => sum + entry.text.length + 1, 0) <= options.failureChars - chars;
    for (const entry of room ? single : foldByTemplate(tier)) {
      if (shown >= options.maxFailureLines) break;
      // A long line may not fit where a shorter one of the same rank still does.
      if (chars + entry.text.length > options.failureChars) continue;
      out.push(entry.text);
      chars += entry.text.length + 1;
      shown++;
      listed += entry.kinds;
    }
  }
  if (listed < kinds.size) out.push(`… ${kinds.size - listed} more distinct failure lines of lower severity or more common (retrieve the output for them)`);
  return out;
}

interface ProblemKind { line: string; first: number; last: number; count: number; severity: number }

function clipFailure(line: string): string {
  return line.length <= MAX_FAILURE_LINE ? line : `${line.slice(0, MAX_FAILURE_LINE)}… (${line.length} chars)`;
}

function entryOf(kind: ProblemKind): string {
  const line = clipFailure(kind.line);
  return kind.count > 1 ? `${line} [×${kind.count}, lines ${kind.first + 1}–${kind.last + 1}]` : `${line} [line ${kind.first + 1}]`;
}

/** Kinds of one severity folded by template: the first line, the count, the span, every value of the slots that varied. */
function foldByTemplate(tier: readonly ProblemKind[]): { text: string; kinds: number }[] {
  const groups = new Map<string, { kinds: ProblemKind[]; slots: SlotCounts }>();
  for (const kind of tier) {
    const template = lineTemplate(kind.line);
    const group = groups.get(template.key) ?? { kinds: [], slots: new SlotCounts(true) };
    group.kinds.push(kind);
    for (let repeat = 0; repeat < kind.count; repeat++) group.slots.add(template);
    groups.set(template.key, group);
  }
  return [...groups.values()]
    .map((group) => {
      const first = group.kinds.reduce((best, kind) => (kind.first < best.first ? kind : best));
      if (group.kinds.length === 1) return { text: entryOf(first), kinds: 1, count: first.count, at: first.first };
      const count = group.kinds.reduce((sum, kind) => sum + kind.count, 0);
      const last = Math.max(...group.kinds.map((kind) => kind.last));
      const values = group.slots.describe();
      return { text: `${clipFailure(first.line)} [×${count}, lines ${first.first + 1}–${last + 1}${values.length > 0 ? `; ${values.join('; ')}` : ''}]`, kinds: group.kinds.length, count, at: first.first };
    })
    .sort((a, b) => a.count - b.count || a.at - b.at)
    .map(({ text, kinds }) => ({ text, kinds }));
}

/** A line that reports a failure, an error or a warning (test verdicts, tracebacks, levels, 4xx/5xx). */
function isProblemLine(line: string): boolean {
  if (line.length === 0) return false;
  const probe = line.length > MAX_FAILURE_LINE ? line.slice(0, MAX_FAILURE_LINE) : line;
  return isErrorLine(probe) || isSevereLine(probe) || failureLines(probe, 1).length > 0;
}

function preview(lines: readonly string[], budget: { chars: number }): string[] {
  const shown: string[] = [];
  for (const line of lines) {
    const clipped = clip(line);
    if (clipped.length + 1 > budget.chars) break;
    budget.chars -= clipped.length + 1;
    shown.push(clipped);
  }
  return shown;
}

function clip(line: string): string {
  return line.length <= MAX_PREVIEW_LINE ? line : `${line.slice(0, MAX_PREVIEW_LINE)}… (${line.length} chars)`;
}

/**
 * output_externalize: one giant tool output (by default over 50,000 characters) becomes a
 * handle plus a short head, a short tail, a shape summary and its failure lines. The
 * original is one `retrieve` away, byte for byte.
 *
 * The only strategy here allowed to rewrite the current turn's fresh input: a giant payload
 * costs the most on the turn it arrives. The rewrite is a function of the output's own bytes,
 * so when the message becomes history the same replacement comes out again and the cached
 * prefix holds. Outputs already behind a marker are skipped, keeping retrieval one hop deep.
 */
import type { ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { countLines } from '../stash/marker';
import type { StrategyEnvironment } from './environment';
import { failureLines } from './shared/failure';
import { numberOption } from './shared/options';
import { SegmentEdits } from './shared/segmentEdits';
import { editableSegments } from './shared/segmentSelection';
import { describeShape } from './shared/shape';
import { optionDefaults } from '../pipeline/optionSchema';
import { OUTPUT_EXTERNALIZE_OPTIONS } from './options/outputExternalizeOptions';

/** Options of output_externalize. */
export interface OutputExternalizeOptions {
  /** Outputs longer than this many characters are externalized. */
  readonly maxChars: number;
  /** Lines of the output's start shown after the marker. */
  readonly headLines: number;
  /** Lines of the output's end shown (where verdicts and summaries are printed). */
  readonly tailLines: number;
  /** Most characters the head and the tail may show together. */
  readonly previewChars: number;
  /** Most failure lines listed. */
  readonly maxFailureLines: number;
}

/** The defaults of every output_externalize option, from its schema in options/. */
export const OUTPUT_EXTERNALIZE_DEFAULTS: OutputExternalizeOptions = optionDefaults(OUTPUT_EXTERNALIZE_OPTIONS);

/** A preview line longer than this is cut: one minified line must not bring the bulk back. */
const MAX_PREVIEW_LINE = 300;

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
  };
}

function externalize(request: ChatRequest, context: StrategyContext, options: OutputExternalizeOptions): StrategyResult {
  const edits = new SegmentEdits('output_externalize', context);
  for (const segment of editableSegments(request, context, { includeFresh: true })) {
    if (segment.text.length <= options.maxChars) continue;
    const lines = countLines(segment.text);
    edits.elide({ segment, summary: `externalized ${segment.text.length} chars, ${lines} lines`, render: (marker) => render(marker, segment.text, options) });
  }
  return edits.result(
    request,
    { action: 'tool-output-externalized', reason: `tool outputs over ${options.maxChars} characters were replaced by a handle, a preview and their shape` },
    { action: 'nothing-to-do', reason: `no tool output over ${options.maxChars} characters` },
  );
}

function render(marker: string, text: string, options: OutputExternalizeOptions): string {
  const lines = text.split('\n');
  const budget = { chars: options.previewChars };
  const head = preview(lines.slice(0, options.headLines), budget);
  const tailStart = Math.max(head.length, lines.length - options.tailLines);
  const tail = preview(lines.slice(tailStart), budget);
  const hidden = lines.length - head.length - tail.length;
  const out = [marker, `shape: ${describeShape(text)}`, ...head];
  if (hidden > 0) out.push(`… ${hidden} lines not shown …`);
  out.push(...tail);
  const failures = failureLines(text, options.maxFailureLines);
  if (failures.length > 0) out.push('failure lines:', ...failures.map((line) => clip(line)));
  return out.join('\n');
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

/**
 * context_compression: the catch-all for bulky tool output that no specialist claimed. The
 * shared cleaners (`core/content`) detect the format and keep what matters: JSON minified
 * with long arrays summarised by shape (anomalous and question-matching rows kept), HTML
 * reduced to its text, logs folded, diffs, stack traces, listings and grep hits compacted.
 * Plain prose and source code are never rewritten.
 *
 * Runs after the specialists (command_digest, relevance_filter, code_graph) and
 * observation_mask: anything they already put behind a marker is skipped, so the catch-all
 * never mangles a specialist's input. History only; the original is one `retrieve` away.
 */
import { cleanContent } from '../content';
import type { ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import type { StrategyEnvironment } from './environment';
import { elideCleaned } from './shared/cleanedOutput';
import { numberOption } from './shared/options';
import { SegmentEdits } from './shared/segmentEdits';
import { editableSegments } from './shared/segmentSelection';
import { userQuestion } from './shared/userQuestion';
import { optionDefaults } from '../pipeline/optionSchema';
import { CONTEXT_COMPRESSION_OPTIONS } from './options/contextCompressionOptions';

/** Options of context_compression. */
export interface ContextCompressionOptions {
  /** Outputs shorter than this many characters are left alone. */
  readonly minChars: number;
  /** Smallest saving, in tokens, worth a rewrite. */
  readonly minSavedTokens: number;
  /**
   * Smallest saving as a share (0–1) of the output's tokens: rewriting a message as it becomes
   * history costs one cache write, which a small trim never earns back.
   */
  readonly minSavedRatio: number;
}

/** The defaults of every context_compression option, from its schema in options/. */
export const CONTEXT_COMPRESSION_DEFAULTS: ContextCompressionOptions = optionDefaults(CONTEXT_COMPRESSION_OPTIONS);

/** Builds the context_compression strategy; it needs nothing from the host. */
export function createContextCompression(_environment: StrategyEnvironment = {}): Strategy {
  return {
    id: 'context_compression',
    defaultEnabled: true,
    kind: 'transform',
    defaults: { ...CONTEXT_COMPRESSION_DEFAULTS },
    optionSchema: CONTEXT_COMPRESSION_OPTIONS,
    apply: (request, context) => compress(request, context, readOptions(context.options)),
  };
}

function readOptions(options: Readonly<Record<string, unknown>>): ContextCompressionOptions {
  return { minChars: numberOption(options, 'minChars'), minSavedTokens: numberOption(options, 'minSavedTokens'), minSavedRatio: numberOption(options, 'minSavedRatio') };
}

function compress(request: ChatRequest, context: StrategyContext, options: ContextCompressionOptions): StrategyResult {
  const candidates = editableSegments(request, context).filter((segment) => segment.text.length >= options.minChars);
  const idle = { action: 'nothing-to-do', reason: 'no bulky structured tool output in the undecided history worth compressing' };
  if (candidates.length === 0) return { request, ...idle };
  const question = userQuestion(request);
  const edits = new SegmentEdits('context_compression', context);
  const formats: Record<string, number> = {};
  for (const segment of candidates) {
    const cleaned = cleanContent(segment.text, { command: segment.command, question });
    if (cleaned.format === 'text') continue;
    if (elideCleaned(edits, segment, cleaned, `${cleaned.format} compressed`, { tokens: options.minSavedTokens, ratio: options.minSavedRatio })) {
      formats[cleaned.format] = (formats[cleaned.format] ?? 0) + 1;
    }
  }
  const byFormat = Object.entries(formats).map(([format, count]) => `${format} ${count}`).join(', ');
  return edits.result(
    request,
    { action: 'tool-output-compressed', reason: `${edits.count} bulky tool outputs compressed to their shape (${byFormat})` },
    idle,
    formats,
  );
}

/**
 * context_compression: the catch-all for bulky tool output that no specialist claimed. The
 * shared cleaners (`core/content`) detect the format and keep what matters: JSON minified
 * with long arrays summarised by shape (anomalous and question-matching rows kept), HTML
 * reduced to its text, logs folded, diffs, stack traces, listings and grep hits compacted.
 * Plain prose and source code are never rewritten.
 *
 * Runs after the specialists (command_digest, relevance_filter, code_graph) and
 * observation_mask: anything they already put behind a marker is skipped, so the catch-all
 * never mangles a specialist's input. The original is one `retrieve` away.
 *
 * Fresh input is decided on arrival (`touchesFresh`): a tool's fresh output gets the
 * question-independent cleaning (JSON by shape with every anomalous row, listings by folder), so
 * the same bytes come out when it is history; bulk a user pasted under their question is cleaned
 * with that question's words, which sit in the same message.
 */
import type { z } from 'zod';
import { cleanContent } from '../content';
import type { ToolOutputSegment } from '../chat/toolOutput';
import type { ChatRequest } from '../chat/types';
import { scoreLexically } from '../relevance/lexicalScorer';
import { ownWordsOf } from '../relevance/turnQuery';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import type { StrategyEnvironment } from './environment';
import { elideCleaned, readableText } from './shared/cleanedOutput';
import { numberOption } from './shared/options';
import { SegmentEdits } from './shared/segmentEdits';
import { editableSegments, isUserPaste } from './shared/segmentSelection';
import { userQuestion } from './shared/userQuestion';
import { optionDefaults } from '../pipeline/optionSchema';
import { CONTEXT_COMPRESSION_OPTIONS } from './options/contextCompressionOptions';

/** Options of context_compression, as its schema in `options/` declares them (type, default, bounds, description). */
export type ContextCompressionOptions = Readonly<z.output<typeof CONTEXT_COMPRESSION_OPTIONS>>;

/** The defaults of every context_compression option, from its schema in options/. */
export const CONTEXT_COMPRESSION_DEFAULTS: ContextCompressionOptions = optionDefaults(CONTEXT_COMPRESSION_OPTIONS);

/** Builds the context_compression strategy; it needs nothing from the host. */
export function createContextCompression(_environment: StrategyEnvironment = {}): Strategy {
  return {
    id: 'context_compression',
    defaultEnabled: true,
    kind: 'transform',
    touchesFresh: true,
    defaults: { ...CONTEXT_COMPRESSION_DEFAULTS },
    optionSchema: CONTEXT_COMPRESSION_OPTIONS,
    apply: (request, context) => compress(request, context, readOptions(context.options)),
  };
}

/**
 * The question words a segment is cleaned with. Fresh tool output gets none (its arrival form
 * must not depend on anything but its own bytes); bulk a user pasted gets the words around it in
 * the same message; history keeps the latest question, as it always has.
 */
function questionFor(request: ChatRequest, segment: ToolOutputSegment, freshStart: number, latest: string | undefined): string | undefined {
  if (segment.messageIndex < freshStart) return latest;
  return isUserPaste(request, segment) ? ownWordsOf(request, segment.messageIndex) || undefined : undefined;
}

function readOptions(options: Readonly<Record<string, unknown>>): ContextCompressionOptions {
  return { minChars: numberOption(options, 'minChars'), minSavedTokens: numberOption(options, 'minSavedTokens'), minSavedRatio: numberOption(options, 'minSavedRatio'), freshMinSavedRatio: numberOption(options, 'freshMinSavedRatio') };
}

function compress(request: ChatRequest, context: StrategyContext, options: ContextCompressionOptions): StrategyResult {
  const candidates = editableSegments(request, context, { includeFresh: true }).filter((segment) => segment.text.length >= options.minChars);
  const idle = { action: 'nothing-to-do', reason: 'no bulky structured tool output in the undecided history or the fresh input worth compressing' };
  if (candidates.length === 0) return { request, ...idle };
  const question = userQuestion(request);
  const edits = new SegmentEdits('context_compression', context);
  const formats: Record<string, number> = {};
  for (const segment of candidates) {
    context.deadline.check();
    const asked = questionFor(request, segment, context.freshStart, question);
    // Bulk pasted under a question keeps the rows that answer it best, not every row sharing a word with it.
    const rankRows = asked !== undefined && segment.messageIndex >= context.freshStart ? (rows: readonly string[]) => scoreLexically(asked, rows) : undefined;
    const cleaned = cleanContent(readableText(segment), { command: segment.command, question: asked, ...(rankRows ? { rankRows } : {}) });
    if (cleaned.format === 'text') continue;
    if (elideCleaned(edits, segment, cleaned, `${cleaned.format} compressed`, { tokens: options.minSavedTokens, ratio: segment.messageIndex >= context.freshStart ? options.freshMinSavedRatio : options.minSavedRatio })) {
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

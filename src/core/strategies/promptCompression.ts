/**
 * prompt_compression: in system and user text over 400 characters, collapses whitespace and
 * drops exact-duplicate sentences and paragraphs (the first copy kept), preserving line and
 * list structure. Code (fenced, indented, inline) passes through byte for byte, and so does
 * tool output pasted into a user message: only the prose around it is tidied.
 *
 * Data is not prose: besides pasted output, paragraphs that read as a log, a listing or JSON,
 * table rows and lines laid out in aligned columns keep their spacing.
 *
 * Lossless: the original text is stashed and the tidied text carries a marker at its end. The
 * marker costs tokens, so a text is only rewritten when the saving clearly exceeds it, and a
 * user's message only when the saving is a real share of it (`userMinSavedShare`).
 *
 * It tidies the fresh input too (`touchesFresh`): a prompt is tidied on the turn it arrives,
 * and the same bytes come out when it becomes history, so the first turn's cached prefix
 * holds instead of being rewritten one turn later.
 */
import type { z } from 'zod';
import { findToolOutputs } from '../chat/toolOutput';
import type { ChatMessage, ChatRequest, Part } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import type { StrategyEnvironment } from './environment';
import { numberOption } from './shared/options';
import { ProseTidier } from './shared/proseTidy';
import { optionDefaults } from '../pipeline/optionSchema';
import { PROMPT_COMPRESSION_OPTIONS } from './options/promptCompressionOptions';

/** Options of prompt_compression, as its schema in `options/` declares them (type, default, bounds, description). */
export type PromptCompressionOptions = Readonly<z.output<typeof PROMPT_COMPRESSION_OPTIONS>>;

/** The defaults of every prompt_compression option, from its schema in options/. */
export const PROMPT_COMPRESSION_DEFAULTS: PromptCompressionOptions = optionDefaults(PROMPT_COMPRESSION_OPTIONS);

/** Builds the prompt_compression strategy; it needs nothing from the host. */
export function createPromptCompression(_environment: StrategyEnvironment = {}): Strategy {
  return {
    id: 'prompt_compression',
    defaultEnabled: true,
    kind: 'transform',
    touchesFresh: true,
    defaults: { ...PROMPT_COMPRESSION_DEFAULTS },
    optionSchema: PROMPT_COMPRESSION_OPTIONS,
    apply: (request, context) => compress(request, context, readOptions(context.options)),
  };
}

function readOptions(options: Readonly<Record<string, unknown>>): PromptCompressionOptions {
  return { minChars: numberOption(options, 'minChars'), minSavedTokens: numberOption(options, 'minSavedTokens'), userMinSavedShare: numberOption(options, 'userMinSavedShare') };
}

interface Totals {
  texts: number;
  sentences: number;
  paragraphs: number;
  tokensSaved: number;
  handles: string[];
}

function compress(request: ChatRequest, context: StrategyContext, options: PromptCompressionOptions): StrategyResult {
  const idle = { request, action: 'nothing-to-do', reason: `no system or user prose over ${options.minChars} characters with enough to tidy` };
  const inScope = (message: ChatMessage, index: number): boolean =>
    index >= context.frozenCount && (message.role === 'system' || message.role === 'user') && message.parts.some((part) => part.type === 'text' && part.text.length >= options.minChars);
  if (!request.messages.some(inScope)) return idle;
  // Spans of pasted tool output, per message and part: never tidied.
  const pasted = new Map<string, { start: number; end: number }[]>();
  for (const segment of findToolOutputs(request)) {
    context.deadline.check();
    if (segment.source !== 'pasted') continue;
    const key = `${segment.messageIndex}.${segment.partIndex}`;
    pasted.set(key, [...(pasted.get(key) ?? []), { start: segment.start, end: segment.end }]);
  }
  const totals: Totals = { texts: 0, sentences: 0, paragraphs: 0, tokensSaved: 0, handles: [] };
  let changed = false;
  const messages = request.messages.map((message, messageIndex): ChatMessage => {
    if (!inScope(message, messageIndex)) return message;
    let parts: Part[] | undefined;
    message.parts.forEach((part, partIndex) => {
      context.deadline.check();
      if (part.type !== 'text') return;
      const rewritten = rewrite(part.text, messageIndex, pasted.get(`${messageIndex}.${partIndex}`) ?? [], context, options, totals, message.role === 'user' ? options.userMinSavedShare : 0);
      if (rewritten === undefined) return;
      parts ??= [...message.parts];
      parts[partIndex] = { ...part, text: rewritten };
    });
    if (!parts) return message;
    changed = true;
    return { ...message, parts };
  });
  if (!changed) return idle;
  return {
    request: { ...request, messages },
    action: 'prompt-compressed',
    reason: `${totals.texts} texts tidied: whitespace collapsed, ${totals.sentences} duplicate sentences and ${totals.paragraphs} duplicate paragraphs dropped`,
    handles: totals.handles,
    details: { texts: totals.texts, duplicateSentences: totals.sentences, duplicateParagraphs: totals.paragraphs, tokensSaved: totals.tokensSaved },
  };
}

/** The tidied text with its marker, or undefined when it is not worth rewriting. */
function rewrite(text: string, messageIndex: number, spans: readonly { start: number; end: number }[], context: StrategyContext, options: PromptCompressionOptions, totals: Totals, minSavedShare: number): string | undefined {
  const ordered = [...spans].sort((a, b) => a.start - b.start);
  let proseChars = text.length;
  for (const span of ordered) proseChars -= span.end - span.start;
  if (proseChars < options.minChars) return undefined;
  const tidier = new ProseTidier();
  let out = '';
  let cursor = 0;
  for (const span of ordered) {
    out += tidier.tidy(text.slice(cursor, span.start)) + text.slice(span.start, span.end);
    cursor = span.end;
  }
  out += tidier.tidy(text.slice(cursor));
  if (out === text) return undefined;
  const summary = summaryOf(tidier.duplicateSentences, tidier.duplicateParagraphs + tidier.duplicateBlocks);
  const input = { original: text, summary, kind: 'prompt_compression', render: (marker: string): string => `${out}\n${marker}` };
  const before = context.tokens.count(text);
  const saved = before - context.tokens.count(context.stash.preview(input).replacement);
  // The share is of the prose: pasted output around it is not what is being tidied.
  const prose = minSavedShare > 0 ? context.tokens.count(proseOf(text, ordered)) : 0;
  if (saved < options.minSavedTokens || saved < minSavedShare * prose) return undefined;
  // Priced as the provider bills (cacheEconomics.ts): text it holds is a rewrite of its cache;
  // text it does not hold yet (a session's first system prompt) pays for the retrieve round it
  // may cause, which resends the whole text.
  const rewrites = context.rewrites;
  if (rewrites && !(rewrites.isCached(messageIndex) ? rewrites.pays(messageIndex, before, before - saved) : rewrites.paysFresh(before, before - saved))) return undefined;
  const elision = context.stash.elide(input);
  totals.texts++;
  totals.sentences += tidier.duplicateSentences;
  totals.paragraphs += tidier.duplicateParagraphs + tidier.duplicateBlocks;
  totals.tokensSaved += saved;
  totals.handles.push(elision.handle);
  return elision.replacement;
}

/** The text with its pasted spans cut out. */
function proseOf(text: string, spans: readonly { start: number; end: number }[]): string {
  let out = '';
  let cursor = 0;
  for (const span of spans) {
    out += text.slice(cursor, span.start);
    cursor = span.end;
  }
  return out + text.slice(cursor);
}

/** Kept short: the marker is paid for in every later request. */
function summaryOf(sentences: number, paragraphs: number): string {
  const repeats = sentences + paragraphs;
  return repeats > 0 ? `prompt tidied, ${repeats} repeats dropped` : 'prompt tidied';
}

/**
 * Where tool output sits in a request: tool-result parts, and bulk pasted into user
 * messages (agents that paste `<output>…</output>`, people who paste a log under their
 * question). Strategies read segments from here and write replacements back with
 * {@link replaceSegments}, so the user's own words around pasted bulk are never touched.
 */
import { isObject } from './objects';
import { detectContentFormat } from '../content/detect';
import { itemListSpan, pastedBulkSpans } from './pastedBulk';
import { pastedTestRunSpans } from './pastedTestRuns';
import type { ChatMessage, ChatRequest, Part, TextPart, ToolResultPart } from './types';

export interface ToolOutputSegment {
  /** Stable address: `m<message>.p<part>[.c<content>].<start>` */
  readonly key: string;
  readonly messageIndex: number;
  readonly partIndex: number;
  /** For tool results, the index inside the result's content; -1 for a text part. */
  readonly contentIndex: number;
  /** The output's span inside that text. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly source: 'tool_result' | 'pasted';
  /** The provider flagged the result as a failure (Anthropic `is_error`). */
  readonly isError: boolean;
  /** Exit status an agent reported next to pasted output (`<returncode>1</returncode>`). */
  readonly exitCode?: number;
  /** The command that produced it, when the request shows it (tool call arguments or a bash block). */
  readonly command?: string;
  readonly toolName?: string;
  readonly callId?: string;
}

/** Pasted output tags that agents such as mini-swe-agent use. */
const OUTPUT_TAG = /<(output|output_head|output_tail|stdout|stderr)>\n?([\s\S]*?)\n?<\/\1>/g;
const RETURN_CODE = /<returncode>\s*(-?\d+)\s*<\/returncode>/;
const FENCE = /(^|\n)(```|~~~)[^\n]*\n([\s\S]*?)\n\2[ \t]*(?=\n|$)/g;
/** A fenced block pasted into a user message counts as output only from this many lines. */
const PASTED_FENCE_MIN_LINES = 40;

export function findToolOutputs(request: ChatRequest): ToolOutputSegment[] {
  // Most strategies of a run read the segments of the same messages (a strategy that changes
  // nothing hands the next one the same array): found once per message array. The array's
  // messages are compared too (pointer by pointer, cheap), so a strategy that fills a copied
  // array after reading its segments still gets the segments of what it holds.
  const known = segmentsByMessages.get(request.messages);
  if (known && sameMessages(known.messages, request.messages)) return known.segments.slice();
  const segments = collectToolOutputs(request);
  segmentsByMessages.set(request.messages, { messages: request.messages.slice(), segments });
  return segments.slice();
}

/** Segments by the message array they were found in, with the messages it held then. */
const segmentsByMessages = new WeakMap<readonly ChatMessage[], { readonly messages: readonly ChatMessage[]; readonly segments: readonly ToolOutputSegment[] }>();

function sameMessages(before: readonly ChatMessage[], now: readonly ChatMessage[]): boolean {
  if (before.length !== now.length) return false;
  for (let index = 0; index < now.length; index++) if (before[index] !== now[index]) return false;
  return true;
}

function collectToolOutputs(request: ChatRequest): ToolOutputSegment[] {
  const segments: ToolOutputSegment[] = [];
  const calls = new Map<string, { name: string; command?: string }>();
  let lastBashBlock: string | undefined;
  const firstUser = request.messages.findIndex((message) => message.role === 'user');
  request.messages.forEach((message, messageIndex) => {
    message.parts.forEach((part, partIndex) => {
      if (part.type === 'tool_call') {
        calls.set(part.id, { name: part.name, command: commandOf(part.arguments) });
      } else if (part.type === 'tool_result') {
        const call = calls.get(part.callId);
        part.content.forEach((inner, contentIndex) => {
          if (inner.type !== 'text' || inner.text.length === 0) return;
          segments.push({
            key: `m${messageIndex}.p${partIndex}.c${contentIndex}.0`,
            messageIndex, partIndex, contentIndex, start: 0, end: inner.text.length, text: inner.text,
            source: 'tool_result', isError: part.isError === true, command: call?.command, toolName: call?.name, callId: part.callId,
          });
        });
      } else if (part.type === 'text') {
        if (message.role === 'assistant') {
          lastBashBlock = lastFencedBlock(part.text) ?? lastBashBlock;
        } else if (message.role === 'user') {
          for (const found of pastedSpans(part.text, messageIndex === firstUser)) {
            const span = afterPromptLine(part.text, found);
            segments.push({
              key: `m${messageIndex}.p${partIndex}.${span.start}`,
              messageIndex, partIndex, contentIndex: -1, start: span.start, end: span.end,
              text: part.text.slice(span.start, span.end), source: 'pasted', isError: false,
              exitCode: span.exitCode, command: span.command ?? (span.tagged ? lastBashBlock : undefined),
            });
          }
        }
      }
    });
  });
  return segments;
}

/** A shell prompt line pasted above a command's output: `$ rg -n retry src`. */
const PROMPT_LINE = /^\$ (\S[^\n]{0,500})\n/;

/**
 * A pasted span that opens with the shell prompt line the user copied with the output: the
 * output starts under it, and the line names the command that printed it (as a tool call's
 * arguments do). The prompt line stays the user's, outside the segment.
 */
function afterPromptLine(text: string, span: Span): Span & { command?: string } {
  if (span.tagged) return span;
  const prompt = PROMPT_LINE.exec(text.slice(span.start, Math.min(span.end, span.start + 600)));
  if (prompt === null || span.start + prompt[0].length >= span.end) return span;
  // A transcript of several commands is no one command's output.
  if (/^\$ \S/m.test(text.slice(span.start + prompt[0].length, span.end))) return span;
  return { ...span, start: span.start + prompt[0].length, command: prompt[1]!.trim() };
}

/**
 * A new request with the given segments' text replaced (key → new text). Untouched
 * messages and parts keep their identity; the input is never mutated.
 */
export function replaceSegments(request: ChatRequest, replacements: ReadonlyMap<string, string>): ChatRequest {
  if (replacements.size === 0) return request;
  // Edits by message, then by part and content index (in segment order): each message is
  // visited once, not once per edited part of the whole request.
  const byMessage = new Map<number, Map<string, { partIndex: number; contentIndex: number; edits: { segment: ToolOutputSegment; text: string }[] }>>();
  for (const segment of findToolOutputs(request)) {
    const text = replacements.get(segment.key);
    if (text === undefined || text === segment.text) continue;
    let parts = byMessage.get(segment.messageIndex);
    if (!parts) byMessage.set(segment.messageIndex, (parts = new Map()));
    const id = `${segment.partIndex}.${segment.contentIndex}`;
    let entry = parts.get(id);
    if (!entry) parts.set(id, (entry = { partIndex: segment.partIndex, contentIndex: segment.contentIndex, edits: [] }));
    entry.edits.push({ segment, text });
  }
  if (byMessage.size === 0) return request;
  const messages = request.messages.map((message, messageIndex) => {
    const edited = byMessage.get(messageIndex);
    if (!edited) return message;
    const parts = [...message.parts];
    for (const { partIndex, contentIndex, edits } of edited.values()) parts[partIndex] = applyEdits(parts[partIndex]!, contentIndex, edits);
    return { ...message, parts };
  });
  return { ...request, messages };
}

function applyEdits(part: Part, contentIndex: number, edits: { segment: ToolOutputSegment; text: string }[]): Part {
  const rewrite = (text: string): string => {
    let out = text;
    for (const edit of [...edits].sort((a, b) => b.segment.start - a.segment.start)) {
      out = out.slice(0, edit.segment.start) + edit.text + out.slice(edit.segment.end);
    }
    return out;
  };
  if (part.type === 'text') return { ...part, text: rewrite(part.text) } satisfies TextPart;
  if (part.type === 'tool_result') {
    const content = part.content.map((inner, index) => (index === contentIndex && inner.type === 'text' ? { ...inner, text: rewrite(inner.text) } : inner));
    return { ...part, content } satisfies ToolResultPart;
  }
  return part;
}

/** The command a tool call ran: its `command`/`cmd` argument, else its arguments as text. */
export function commandOf(argumentsValue: unknown): string | undefined {
  let value: unknown = argumentsValue;
  if (typeof argumentsValue === 'string') {
    try {
      value = JSON.parse(argumentsValue);
    } catch {
      return argumentsValue;
    }
  }
  if (isObject(value)) {
    for (const key of ['command', 'cmd', 'script', 'query', 'path', 'file_path', 'filePath']) {
      const field = value[key];
      if (typeof field === 'string') return key === 'command' || key === 'cmd' || key === 'script' ? field : `${key}=${field}`;
      if (Array.isArray(field) && field.every((item) => typeof item === 'string')) return field.join(' ');
    }
  }
  return value === undefined ? undefined : JSON.stringify(value);
}

function lastFencedBlock(text: string): string | undefined {
  let last: string | undefined;
  for (const match of text.matchAll(FENCE)) last = match[3];
  return last;
}

interface Span { start: number; end: number; exitCode?: number; tagged: boolean }

/**
 * Spans of pasted bulk in a user's text: tagged output; else a pasted list of items (retrieved
 * chunks, candidates); else long fenced blocks and unfenced runs of data (a log, JSON, a listing)
 * around the user's words, which are never part of a span. In the first user message (an agent's
 * task, or a chat's opening question) a fenced block counts only when it reads as data: code and
 * text quoted in a task are the task.
 */
function pastedSpans(text: string, first: boolean): Span[] {
  // Every strategy asks for the request's segments: a user's long message is read for bulk once.
  const memo = first ? FIRST_SPAN_MEMO : SPAN_MEMO;
  const known = memo.get(text);
  if (known !== undefined) return known;
  const spans = findPastedSpans(text, first);
  if (text.length >= 1_000) {
    memo.set(text, spans);
    if (memo.size > SPAN_MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
  }
  return spans;
}

/** Recent texts' pasted spans (a request's messages come back on every turn), for first user messages and the rest. */
const FIRST_SPAN_MEMO = new Map<string, Span[]>();
const SPAN_MEMO = new Map<string, Span[]>();
const SPAN_MEMO_ENTRIES = 256;

function findPastedSpans(text: string, first: boolean): Span[] {
  const spans: Span[] = [];
  const exit = RETURN_CODE.exec(text);
  const exitCode = exit ? Number(exit[1]) : undefined;
  for (const match of text.matchAll(OUTPUT_TAG)) {
    const body = match[2] ?? '';
    if (body.length === 0) continue;
    const start = (match.index ?? 0) + match[0].indexOf(body, match[1]!.length + 2);
    spans.push({ start, end: start + body.length, exitCode, tagged: true });
  }
  if (spans.length > 0) return spans;
  const items = itemListSpan(text);
  if (items !== undefined) return [{ ...items, tagged: false }];
  for (const match of text.matchAll(FENCE)) {
    const body = match[3] ?? '';
    if (body.split('\n').length < PASTED_FENCE_MIN_LINES || (first && detectContentFormat(body) === 'text')) continue;
    const start = (match.index ?? 0) + match[0].indexOf(body);
    spans.push({ start, end: start + body.length, tagged: false });
  }
  const fenced = [...text.matchAll(FENCE)].map((match) => ({ start: match.index ?? 0, end: (match.index ?? 0) + match[0].length }));
  // A test run between its runner's banners is one span, whatever its paragraphs read as.
  const runs = pastedTestRunSpans(text).filter((run) => !fenced.some((fence) => run.start < fence.end && fence.start < run.end));
  for (const run of runs) spans.push({ ...run, tagged: false });
  for (const span of pastedBulkSpans(text, [...fenced, ...runs])) spans.push({ ...span, tagged: false });
  return spans.sort((a, b) => a.start - b.start);
}

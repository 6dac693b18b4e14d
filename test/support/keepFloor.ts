/**
 * The floor the keep-rules of issues #3 and #10 put under any optimizer: what a request must
 * still carry if every byte those rules allow to go were gone. Kept: the system prompt, the
 * task (first user message), the fresh input, every action of the agent (tool calls, opaque
 * parts, fenced command blocks in its text) and, of each failed tool output in history, its
 * failure lines (or the whole output, in the stricter reading). Gone at no cost, not even a
 * marker (or, in the stricter reading, behind one marker per message): the agent's prose (or
 * all of it but its conclusions, in a third reading), every other observation. No real optimizer reaches this floor; it bounds what the savings
 * goal asks against what the rules let go.
 */
import type { ChatMessage, ChatRequest, Part } from '../../src/core/chat/types';
import { partText } from '../../src/core/chat/types';
import { findToolOutputs, type ToolOutputSegment } from '../../src/core/chat/toolOutput';
import { freshStartOf } from '../../src/core/pipeline/freshInput';
import { failureLines, isFailureOutput } from '../../src/core/strategies/shared/failure';
import { formatMarker } from '../../src/core/stash/marker';
import { HISTORY_TRIM_DEFAULTS } from '../../src/core/strategies/historyTrim';
import { planTrim, renderTrim } from '../../src/core/strategies/history/trimPlan';
import type { TokenCounter } from '../../src/core/tokens/tokenCounter';
import { pricersFor } from './cachePricing';

/** How the floor reads the rules. */
export interface FloorReading {
  /** A failed observation in history keeps its failure lines only, or stays whole. */
  readonly failures: 'failure-lines' | 'whole-output';
  /** Each shortened message pays for one marker (a real optimizer leaves one to retrieve the rest). */
  readonly markers: boolean;
  /**
   * What of the agent's prose stays beside its actions: nothing, or what history_trim's own rule
   * calls what it concluded (the last sentences before the action, findings, decisions and
   * captions of kept code), without the sentences it keeps only for a name not shown elsewhere.
   * Default nothing.
   */
  readonly prose?: 'none' | 'conclusions';
}

/** A marker as Herald writes it, for the price of one. */
const MARKER = formatMarker('observation masked: 120 lines', 'hr_abcdefghijklmnop');

const FENCED_BLOCK = /(^|\n)(```|~~~)[^\n]*\n[\s\S]*?\n\2[ \t]*(?=\n|$)/g;

/** The request reduced to what the keep-rules protect, one text message per original message. */
export function floorRequest(request: ChatRequest, reading: FloorReading): ChatMessage[] {
  const freshStart = freshStartOf(request.messages);
  const firstUser = request.messages.findIndex((message) => message.role === 'user');
  const outputs = new Map<number, ToolOutputSegment[]>();
  for (const segment of findToolOutputs(request)) outputs.set(segment.messageIndex, [...(outputs.get(segment.messageIndex) ?? []), segment]);
  return request.messages.map((message, index) => {
    const whole = message.role === 'system' || index === firstUser || index >= freshStart;
    const original = message.parts.map(partText).join('\n');
    const kept = whole ? original : protectedText(message, outputs.get(index) ?? [], reading);
    const text = reading.markers && kept !== original ? [kept, MARKER].filter((piece) => piece.length > 0).join('\n') : kept;
    return { role: message.role, parts: [{ type: 'text', text }], contentShape: 'string' };
  });
}

function protectedText(message: ChatMessage, segments: readonly ToolOutputSegment[], reading: FloorReading): string {
  if (message.role === 'assistant') return message.parts.map(reading.prose === 'conclusions' ? assistantConclusions : assistantAction).join('\n');
  // An observation: only failures have to stay; the user's own words around pasted output stay too.
  const kept = segments.filter((segment) => isFailureOutput(segment)).map((segment) => (reading.failures === 'whole-output' ? segment.text : failureLines(segment.text, Number.MAX_SAFE_INTEGER).join('\n')));
  if (segments.length === 0) return message.parts.map(partText).join('\n');
  return [...kept, ...ownWords(message, segments)].join('\n');
}

/** The user's text outside the pasted outputs and their tags (mini-swe-agent's `<returncode>` wrapper). */
function ownWords(message: ChatMessage, segments: readonly ToolOutputSegment[]): string[] {
  if (segments.some((segment) => segment.source === 'tool_result')) return [];
  const text = message.parts.map(partText).join('\n');
  let rest = text;
  for (const segment of segments) rest = rest.replace(segment.text, '');
  const words = rest.replace(/<returncode>\s*-?\d+\s*<\/returncode>/g, '').replace(/<\/?(?:output|output_head|output_tail|stdout|stderr|warning)>/g, '').trim();
  return words.length > 0 ? [words] : [];
}

/** The actions with the sentences history_trim keeps as conclusions; every name counts as shown elsewhere. */
function assistantConclusions(part: Part): string {
  if (part.type !== 'text') return partText(part);
  const plan = planTrim(part.text, { keepLastSentences: HISTORY_TRIM_DEFAULTS.keepLastSentences, seenBefore: () => true, shownBefore: () => true });
  return renderTrim(plan, '');
}

function assistantAction(part: Part): string {
  if (part.type !== 'text') return partText(part);
  return [...part.text.matchAll(FENCED_BLOCK)].map((match) => match[0].trimStart()).join('\n');
}

/** Billed tokens and cached cost of a conversation's requests reduced to the floor. */
export function floorOf(requests: readonly ChatRequest[], tokens: TokenCounter, reading: FloorReading): { tokens: number; cachedCost: number } {
  let total = 0;
  let cost = 0;
  const pricer = requests[0] ? pricersFor(requests[0], tokens).own : undefined;
  for (const request of requests) {
    const floor = floorRequest(request, reading);
    for (const message of floor) total += tokens.countMessage(message);
    cost += pricer!.bill({ ...request, messages: floor, tools: [] }).cost;
  }
  return { tokens: total, cachedCost: cost };
}

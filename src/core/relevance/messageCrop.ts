/**
 * Conversation units and how one is cropped, for window_budget.
 *
 * A unit is an assistant message with the messages that answer it (tool results, pasted
 * observations) up to the next assistant message, so a tool call and its result are cropped
 * together. Cropping keeps every message and part in place (the request stays valid: tool
 * calls keep their ids and arguments) and replaces the text behind each part with a marker:
 * the assistant's words, tool results, and output pasted into user messages. The user's own
 * words are never cropped.
 */
import { findToolOutputs, replaceSegments, type ToolOutputSegment } from '../chat/toolOutput';
import type { ChatMessage, ChatRequest, Part } from '../chat/types';
import { findMarkers } from '../stash/marker';
import type { Stash } from '../stash/stash';

export interface ConversationUnit {
  /** First message index (inclusive). */
  readonly start: number;
  /** One past the last message index. */
  readonly end: number;
}

/** Splits messages [from, to) into units that start at assistant messages. */
export function conversationUnits(messages: readonly ChatMessage[], from: number, to: number): ConversationUnit[] {
  const units: ConversationUnit[] = [];
  let start = from;
  for (let index = from + 1; index <= to; index++) {
    if (index === to || messages[index]?.role === 'assistant') {
      if (index > start) units.push({ start, end: index });
      start = index;
    }
  }
  return units;
}

/** What a crop would remove: the texts that would become markers, by location. */
export interface CropPlan {
  /** Tool-output segments (tool results and pasted output) of the unit. */
  readonly segments: readonly ToolOutputSegment[];
  /** Assistant text parts: [message index, part index]. */
  readonly assistantTexts: readonly (readonly [number, number])[];
}

/** Texts shorter than this stay: a marker (about 100 characters) would not make them smaller. */
const MIN_CROP_CHARS = 200;

export function planCrop(request: ChatRequest, unit: ConversationUnit, segments: readonly ToolOutputSegment[] = findToolOutputs(request)): CropPlan {
  const worthCropping = (text: string): boolean => text.length >= MIN_CROP_CHARS && !isOnlyMarker(text);
  const inUnit = segments.filter((segment) => segment.messageIndex >= unit.start && segment.messageIndex < unit.end && worthCropping(segment.text));
  const assistantTexts: [number, number][] = [];
  for (let index = unit.start; index < unit.end; index++) {
    const message = request.messages[index]!;
    if (message.role !== 'assistant') continue;
    message.parts.forEach((part, partIndex) => {
      if (part.type === 'text' && worthCropping(part.text)) assistantTexts.push([index, partIndex]);
    });
  }
  return { segments: inUnit, assistantTexts };
}

/** A text that is already nothing but a marker: cropping it again would only nest markers. */
function isOnlyMarker(text: string): boolean {
  const markers = findMarkers(text);
  return markers.length === 1 && text.trim() === text.slice(markers[0]!.start, markers[0]!.end);
}

/** The texts a plan would remove, for scoring and sizing. */
export function planTexts(request: ChatRequest, plan: CropPlan): string[] {
  return [
    ...plan.assistantTexts.map(([messageIndex, partIndex]) => {
      const part = request.messages[messageIndex]!.parts[partIndex]!;
      return part.type === 'text' ? part.text : '';
    }),
    ...plan.segments.map((segment) => segment.text),
  ];
}

/** Applies a crop: every planned text is stashed and replaced by its marker. Returns the new request, handles and replacement texts. */
export function applyCrop(request: ChatRequest, plan: CropPlan, stash: Stash, kind: string): { request: ChatRequest; handles: string[]; replacements: string[] } {
  const handles: string[] = [];
  const replacementTexts: string[] = [];
  const elide = (original: string, what: string): string => {
    const lines = original.split('\n').length;
    const elision = stash.elide({ original, summary: `${what} cropped to fit the context window (${lines} line(s))`, kind });
    handles.push(elision.handle);
    replacementTexts.push(elision.replacement);
    return elision.replacement;
  };
  const replacements = new Map<string, string>();
  for (const segment of plan.segments) replacements.set(segment.key, elide(segment.text, segment.source === 'tool_result' ? 'tool result' : 'pasted output'));
  let next = replaceSegments(request, replacements);
  if (plan.assistantTexts.length > 0) {
    const messages = [...next.messages];
    for (const [messageIndex, partIndex] of plan.assistantTexts) {
      const message = messages[messageIndex]!;
      const parts: Part[] = [...message.parts];
      const part = parts[partIndex]!;
      if (part.type !== 'text') continue;
      parts[partIndex] = { ...part, text: elide(part.text, 'assistant message') };
      messages[messageIndex] = { ...message, parts };
    }
    next = { ...next, messages };
  }
  return { request: next, handles, replacements: replacementTexts };
}

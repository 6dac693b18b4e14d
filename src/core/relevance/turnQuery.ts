/**
 * The question a request is about, for ranking: the user's latest own words. When the latest
 * user message is only pasted tool output (agents such as mini-swe-agent send observations
 * as user messages), the query falls back to the task (the first user message) and the
 * latest assistant text, which says what the agent is looking for.
 */
import { findToolOutputs, type ToolOutputSegment } from '../chat/toolOutput';
import type { ChatRequest } from '../chat/types';
import { tokenizeForSearch } from './searchTokenizer';

export interface TurnQuery {
  readonly text: string;
  /** Where the query came from, for decisions. */
  readonly source: 'user' | 'task-and-assistant' | 'none';
}

/** The user's own words need this many search terms to stand as a query on their own. */
const MIN_USER_TERMS = 2;
/** Markup an agent wraps around pasted output; not words the user wrote. */
const WRAPPER_TAGS = /<\/?[a-z_]+>/gi;

export function queryForLatestTurn(request: ChatRequest): TurnQuery {
  const ownWords = latestUserOwnWords(request);
  if (tokenizeForSearch(ownWords).length >= MIN_USER_TERMS) return { text: ownWords, source: 'user' };
  const task = firstUserText(request);
  const assistant = latestAssistantText(request);
  const fallback = [task, assistant].filter((text) => text.length > 0).join('\n');
  return fallback.length > 0 ? { text: fallback, source: 'task-and-assistant' } : { text: '', source: 'none' };
}

/** Text of the last user message that has text, with pasted output and its wrapper tags cut out. */
function latestUserOwnWords(request: ChatRequest): string {
  const segments = findToolOutputs(request);
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index]!;
    if (message.role !== 'user' || !message.parts.some((part) => part.type === 'text')) continue;
    return isAgentObservation(request, index) ? '' : ownWordsOf(request, index, segments);
  }
  return '';
}

/**
 * The words the user wrote in one message: its text parts with pasted output and the
 * wrapper tags agents put around it cut out.
 */
export function ownWordsOf(request: ChatRequest, messageIndex: number, segments: readonly ToolOutputSegment[] = findToolOutputs(request)): string {
  const message = request.messages[messageIndex];
  if (!message) return '';
  const pieces: string[] = [];
  message.parts.forEach((part, partIndex) => {
    if (part.type !== 'text') return;
    let text = part.text;
    const pasted = segments.filter((segment) => segment.messageIndex === messageIndex && segment.partIndex === partIndex && segment.contentIndex === -1);
    for (const segment of [...pasted].sort((a, b) => b.start - a.start)) text = text.slice(0, segment.start) + text.slice(segment.end);
    pieces.push(text.replace(WRAPPER_TAGS, ' '));
  });
  return pieces.join('\n').trim();
}

/**
 * The query for output pasted into a user message: the words it was pasted under, when they
 * make a question (so the decision depends on that message alone and repeats on every turn);
 * otherwise the turn's query.
 */
export function queryForPasted(request: ChatRequest, segment: ToolOutputSegment, turn: TurnQuery, segments?: readonly ToolOutputSegment[]): TurnQuery {
  if (segment.source !== 'pasted' || isAgentObservation(request, segment.messageIndex)) return turn;
  const own = ownWordsOf(request, segment.messageIndex, segments);
  return tokenizeForSearch(own).length >= MIN_USER_TERMS ? { text: own, source: 'user' } : turn;
}

/** Markup of an agent's observation message (mini-swe-agent and the like): its other words are the framework's, not a question. */
const OBSERVATION_MARKUP = /<returncode>|<(?:output|output_head|output_tail|stdout|stderr)>/;

function isAgentObservation(request: ChatRequest, messageIndex: number): boolean {
  return request.messages[messageIndex]?.parts.some((part) => part.type === 'text' && OBSERVATION_MARKUP.test(part.text)) ?? false;
}

function firstUserText(request: ChatRequest): string {
  const message = request.messages.find((candidate) => candidate.role === 'user');
  return message ? textOf(message.parts) : '';
}

function latestAssistantText(request: ChatRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index]!;
    if (message.role === 'assistant') return textOf(message.parts);
  }
  return '';
}

function textOf(parts: ChatRequest['messages'][number]['parts']): string {
  return parts.map((part) => (part.type === 'text' ? part.text : '')).filter((text) => text.length > 0).join('\n').trim();
}

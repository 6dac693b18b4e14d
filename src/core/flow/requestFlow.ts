/**
 * One request through a Herald model: optimize, forward, stream back, and answer the model's
 * `herald_retrieve` calls inside the turn so the caller never sees a tool it does not know.
 *
 * Host-neutral: the VS Code provider and the gateway adapt their transport to these types and back.
 */
import type { ChatMessage, ChatRequest, Part, ToolDefinition } from '../chat/types';
import type { PipelineResult } from '../pipeline/pipeline';
import type { Decision } from '../pipeline/types';
import { findMarkers, isHandle } from '../stash/marker';
import type { Logger } from '../ports';
import { partText } from '../chat/types';
import { latestUserText } from '../pipeline/freshInput';
import type { ForwardTarget, ResponseChunk } from './forwardTarget';
import { describeError } from '../errors';
import type { BillingKind } from '../costs/billing';
import { addUsage, type ProviderUsage } from '../costs/usage';

export const RETRIEVE_TOOL_NAME = 'herald_retrieve';
const PREVIEW_CHARS = 200;

/** The tool a model is offered when its request carries markers. */
export const RETRIEVE_TOOL: ToolDefinition = {
  name: RETRIEVE_TOOL_NAME,
  description:
    'Returns the original content Herald elided from this conversation. Call it with the handle shown in a marker such as "[herald: 412 lines elided · retrieve hr_…]" when you need the exact text.',
  inputSchema: {
    type: 'object',
    properties: { handle: { type: 'string', description: 'The handle from the marker, e.g. hr_k2p4q7m3x9a5b6c1.' } },
    required: ['handle'],
  },
};

/** What happened to one request: the sidebar's row, the report's line. Metadata only. */
export interface RequestRecord {
  readonly id: string;
  readonly startedAt: number;
  /** The Herald model's display name. */
  readonly model: string;
  /** The target's model family (for an endpoint, the model id it expects): what the price table is looked up by. */
  readonly family?: string;
  /** `optimized`, `served-from-cache` (semantic_cache answered, the target was not called), `forwarded-original` (the pipeline failed), `optimizer-off`, `failed` (the target failed) or `cancelled` (the caller stopped it). A failed or cancelled request saves nothing. */
  readonly status: 'optimized' | 'served-from-cache' | 'forwarded-original' | 'optimizer-off' | 'failed' | 'cancelled';
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Time the pipeline took, in ms. */
  readonly optimizeMs: number;
  /** Time until the answer was complete, in ms. */
  readonly totalMs: number;
  readonly decisions: readonly Decision[];
  readonly handles: readonly string[];
  /** How many `herald_retrieve` calls Herald answered inside the turn. */
  readonly retrievals: number;
  /** `herald_retrieve` calls the model addressed to the caller's own tool of that name (passed through, counted). */
  readonly callerRetrievals?: number;
  /** Requests sent to the target for this turn: the first, plus one per round of Herald's own tool answers. */
  readonly rounds?: number;
  /** How the target bills (premium requests, tokens, unknown). */
  readonly billing?: BillingKind;
  /** Premium requests this turn spent: every round sent to a Copilot-hosted model (each is user-initiated). */
  readonly premiumRequests?: number;
  /** The provider's own usage figures, summed over the rounds that reported them. */
  readonly usage?: ProviderUsage;
  /** Who asked: the caller of the Herald model, or Herald itself (the library's plan, the filter's quality check). */
  readonly origin?: 'caller' | 'herald';
  /** Money, when the target bills by the token and the price table knows the model (filled by the host). */
  readonly cost?: RequestCost;
  /** Leading messages replayed exactly as earlier turns decided them (their savings carry over). */
  readonly replayedMessages: number;
  /** The `context_quality` signal's verdict, when that strategy ran. */
  readonly contextQuality?: string;
  /** The pipeline's or the target's error message. */
  readonly error?: string;
  /** The start of the user's latest words; only recorded when content mode is on. */
  readonly promptPreview?: string;
}

/** What one request cost in money, at the price table's prices. */
export interface RequestCost {
  /** The price table's key that matched the model. */
  readonly priceKey: string;
  /** USD the provider's usage comes to. */
  readonly billedUsd: number;
  /** Herald's estimate in USD of the same turn without the optimizer. */
  readonly unoptimizedUsd: number;
}

export interface RequestFlowInput {
  readonly id: string;
  readonly request: ChatRequest;
  readonly target: ForwardTarget;
  /** Runs the pipeline; undefined when the optimizer is off. */
  readonly optimize: ((request: ChatRequest, windowTokens: number, signal: AbortSignal) => Promise<PipelineResult>) | undefined;
  /** The original behind a handle, or undefined. */
  readonly retrieve: (handle: string) => Promise<string | undefined>;
  /** Hands a chunk to the caller as soon as it is final. */
  readonly report: (chunk: ResponseChunk) => void;
  readonly signal: AbortSignal;
  /** Most rounds of retrieve answers in one turn. */
  readonly retrieveRounds: number;
  readonly logger: Logger;
  /** Counts tokens when the optimizer is off (so the record still has sizes). */
  readonly countTokens: (request: ChatRequest) => number;
  /** Content mode: record the start of the user's latest words with the decisions. */
  readonly contentMode?: boolean;
  /**
   * Hands a complete live answer back to the pipeline (semantic_cache stores it), with the
   * request as it arrived and the session the pipeline ran it under. Never called for a
   * cached, cancelled or failed answer.
   */
  readonly afterResponse?: (request: ChatRequest, answer: CachedAnswer, sessionId: string) => Promise<void>;
  readonly now?: () => number;
  /** Who asked (default: the caller). */
  readonly origin?: 'caller' | 'herald';
}

/** What Herald stores as the answer to a request: the text and tool calls the caller saw, in order. */
export interface CachedAnswer {
  readonly herald: 'answer';
  readonly chunks: readonly (Extract<ResponseChunk, { type: 'text' }> | Extract<ResponseChunk, { type: 'tool_call' }>)[];
}

/** The stored answer, when a cache hit carries one in Herald's shape; anything else is not served. */
export function cachedAnswerOf(response: unknown): CachedAnswer | undefined {
  if (typeof response !== 'object' || response === null) return undefined;
  const candidate = response as { herald?: unknown; chunks?: unknown };
  if (candidate.herald !== 'answer' || !Array.isArray(candidate.chunks)) return undefined;
  const valid = candidate.chunks.every((chunk: unknown) => {
    if (typeof chunk !== 'object' || chunk === null) return false;
    const part = chunk as Record<string, unknown>;
    if (part.type === 'text') return typeof part.text === 'string';
    return part.type === 'tool_call' && typeof part.id === 'string' && typeof part.name === 'string' && typeof part.input === 'object' && part.input !== null;
  });
  return valid && candidate.chunks.length > 0 ? (response as CachedAnswer) : undefined;
}

/** Runs one request to the end; rethrows the target's error after recording it. */
export async function runRequestFlow(input: RequestFlowInput): Promise<RequestRecord> {
  const now = input.now ?? Date.now;
  const startedAt = now();
  let request = input.request;
  let status: RequestRecord['status'] = input.optimize ? 'optimized' : 'optimizer-off';
  let result: PipelineResult | undefined;
  let error: string | undefined;
  if (input.optimize) {
    try {
      result = await input.optimize(input.request, input.target.information.maxInputTokens, input.signal);
      request = result.request;
    } catch (failure) {
      status = 'forwarded-original';
      error = describeError(failure);
      input.logger.error('pipeline-failed', `Herald: the optimizer failed, the original request was forwarded: ${error}`);
    }
  }
  const tokensBefore = result?.tokensBefore ?? input.countTokens(input.request);
  const tokensAfter = result?.tokensAfter ?? tokensBefore;
  let retrievals = 0;
  let callerRetrievals = 0;
  let rounds = 0;
  let usage: ProviderUsage | undefined;
  const billing = input.target.information.billing ?? 'unknown';
  const record = (): RequestRecord => ({
    id: input.id,
    startedAt,
    model: input.target.information.name,
    family: input.target.information.family,
    status,
    tokensBefore,
    tokensAfter,
    optimizeMs: result?.durationMs ?? 0,
    totalMs: now() - startedAt,
    decisions: result?.decisions ?? [],
    handles: [...new Set((result?.decisions ?? []).flatMap((decision) => decision.handles))],
    retrievals,
    callerRetrievals,
    rounds,
    billing,
    premiumRequests: billing === 'premium-requests' ? rounds : 0,
    ...(usage ? { usage } : {}),
    origin: input.origin ?? 'caller',
    replayedMessages: result?.replayedMessages ?? 0,
    contextQuality: qualityOf(result?.decisions ?? []),
    error,
    ...(input.contentMode ? { promptPreview: latestUserText(input.request).slice(0, PREVIEW_CHARS) } : {}),
  });

  const cached = result?.response !== undefined ? cachedAnswerOf(result.response) : undefined;
  if (cached) {
    // semantic_cache answered: the stored answer streams back and the target is never called.
    status = 'served-from-cache';
    for (const chunk of cached.chunks) {
      if (input.signal.aborted) break;
      input.report(chunk);
    }
    return record();
  }
  // A hit in a shape Herald does not know (another host stored it) is ignored: the request goes to the target.

  const offerRetrieve = input.retrieveRounds > 0 && input.target.information.toolCalling !== false && hasMarkers(request) && !request.tools.some((tool) => tool.name === RETRIEVE_TOOL_NAME);
  if (offerRetrieve) request = { ...request, tools: [...request.tools, RETRIEVE_TOOL] };

  // What the caller saw, kept for semantic_cache; an answer with parts Herald cannot store is not kept.
  const seen: CachedAnswer['chunks'][number][] = [];
  let storable = true;
  try {
    for (let round = 0; ; round++) {
      if (input.signal.aborted) break;
      const answerRetrieve = offerRetrieve && round < input.retrieveRounds;
      const text: string[] = [];
      const ownCalls: Extract<ResponseChunk, { type: 'tool_call' }>[] = [];
      const foreignCalls: Extract<ResponseChunk, { type: 'tool_call' }>[] = [];
      rounds++;
      for await (const chunk of input.target.send(request, input.signal)) {
        if (chunk.type === 'usage') {
          usage = usage ? addUsage(usage, chunk.usage) : chunk.usage;
          continue;
        }
        if (chunk.type === 'tool_call' && chunk.name === RETRIEVE_TOOL_NAME && !offerRetrieve) callerRetrievals++;
        if (chunk.type === 'tool_call' && offerRetrieve && chunk.name === RETRIEVE_TOOL_NAME) {
          // Herald's own tool: answered here, never shown to the caller (past the round limit it is dropped).
          if (answerRetrieve) ownCalls.push(chunk);
          continue;
        }
        if (chunk.type === 'tool_call' && answerRetrieve) {
          // Held back until the answer is complete: if the model also asks Herald, the order of calls stays intact.
          foreignCalls.push(chunk);
          continue;
        }
        if (chunk.type === 'text') text.push(chunk.text);
        if (chunk.type === 'other') storable = false;
        else seen.push(chunk);
        input.report(chunk);
      }
      // The caller's own tools win: it answers them and the model can ask Herald again next turn.
      for (const call of foreignCalls) {
        seen.push(call);
        input.report(call);
      }
      if (ownCalls.length === 0 || foreignCalls.length > 0) break;
      const answers: Part[] = [];
      for (const call of ownCalls) {
        answers.push({ type: 'tool_result', callId: call.id, content: [{ type: 'text', text: await answerRetrieveCall(call.input, input.retrieve) }], contentShape: 'parts' });
        retrievals++;
      }
      const assistant: ChatMessage = {
        role: 'assistant',
        parts: [...(text.length > 0 ? [{ type: 'text' as const, text: text.join('') }] : []), ...ownCalls.map((call): Part => ({ type: 'tool_call', id: call.id, name: call.name, arguments: call.input }))],
        contentShape: 'parts',
      };
      request = { ...request, messages: [...request.messages, assistant, { role: 'user', parts: answers, contentShape: 'parts' }] };
    }
  } catch (failure) {
    // A stop by the caller is not the target's failure; either way nothing was saved.
    status = input.signal.aborted ? 'cancelled' : 'failed';
    error = describeError(failure);
    const failed = record();
    throw Object.assign(failure instanceof Error ? failure : new Error(error), { heraldRecord: failed });
  }
  if (input.signal.aborted) status = 'cancelled';
  if (input.afterResponse && result && !input.signal.aborted && storable && seen.length > 0) {
    try {
      await input.afterResponse(input.request, { herald: 'answer', chunks: seen }, result.sessionId);
    } catch (failure) {
      input.logger.warn('after-response-failed', `Herald: the answer could not be handed back to the optimizer: ${describeError(failure)}`);
    }
  }
  return record();
}

/** The text a `herald_retrieve` call gets back: the original, or why there is none. */
export async function answerRetrieveCall(input: object, retrieve: (handle: string) => Promise<string | undefined>): Promise<string> {
  const handle = (input as { handle?: unknown }).handle;
  if (typeof handle !== 'string' || !isHandle(handle.trim())) {
    return 'Herald: herald_retrieve needs {"handle": "hr_…"} with a handle copied from a marker in this conversation.';
  }
  const original = await retrieve(handle.trim());
  return original ?? `Herald: nothing is stored under ${handle.trim()} (it expired or belongs to another machine); continue without it or ask the user.`;
}

/** The record a failed request carried when the target threw. */
export function recordOfFailure(error: unknown): RequestRecord | undefined {
  const record = (error as { heraldRecord?: RequestRecord } | undefined)?.heraldRecord;
  return record;
}

function hasMarkers(request: ChatRequest): boolean {
  return request.messages.some((message) => message.parts.some((part) => findMarkers(partText(part)).length > 0));
}

function qualityOf(decisions: readonly Decision[]): string | undefined {
  const decision = decisions.find((candidate) => candidate.strategy === 'context_quality');
  if (!decision) return undefined;
  const verdict = decision.details?.verdict ?? decision.details?.quality ?? decision.details?.score;
  return verdict !== undefined ? String(verdict) : decision.action;
}


/**
 * One request through a Herald model: optimize, forward, stream back, and answer the model's
 * calls to Herald's own tools (the registry in `ownTools.ts`: `herald_retrieve`, …) inside the
 * turn, so the caller never sees a tool it does not know.
 *
 * Host-neutral: the VS Code provider and the gateway adapt their transport to these types and back.
 */
import type { ChatMessage, ChatRequest, Part, ToolDefinition } from '../chat/types';
import type { PipelineResult } from '../pipeline/pipeline';
import type { Decision, TargetKind } from '../pipeline/types';
import type { Logger } from '../ports';
import { latestUserText } from '../pipeline/freshInput';
import type { ForwardTarget, OwnToolRound, ProviderUsage, ResponseChunk, ToolCallChunk } from './forwardTarget';
import type { OwnTool, OwnToolAnswer, OwnToolContext } from './ownTool';
import { OWN_TOOLS } from './ownTools';
import { RETRIEVE_TOOL_NAME } from './retrieveTool';
import { requestWithoutRetrievePromise } from './markerPromise';
import { answerClientPointers } from './clientPointers';
import { RAW_SESSIONS, type RawSessions } from './rawSessions';
import { FIRST_MARKER_RATE, type FirstMarkerRate } from './firstMarkerRate';
import { describeError } from '../errors';
import type { BillingKind } from '../costs/billing';
import { totalInputTokens } from '../costs/usage';

export { RETRIEVE_TOOL, RETRIEVE_TOOL_NAME, answerRetrieveCall } from './retrieveTool';
const PREVIEW_CHARS = 200;

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
  /**
   * Tokens of the request as the caller sent it: what going direct would have sent, in one
   * round. When the provider reported usage, in the provider's count (Herald's count scaled by
   * the provider's count of what was sent over Herald's: see `countedTokens`).
   */
  readonly tokensBefore: number;
  /**
   * Tokens sent to the target for this turn, every round counted (the first request and each
   * round of Herald's own tool answers, which re-sends the whole request): the provider's own
   * input figures summed over the rounds when it reported usage, else Herald's count.
   */
  readonly tokensAfter: number;
  /** Herald's own counts (o200k) of the caller's request and of everything sent, when `tokensAfter` is the provider's. */
  readonly countedTokens?: { readonly before: number; readonly after: number };
  /** Herald's count of each request sent to the target this turn, in order (absent when none was sent). */
  readonly roundTokens?: readonly number[];
  /** Time the pipeline took, in ms. */
  readonly optimizeMs: number;
  /** Time until the answer was complete, in ms. */
  readonly totalMs: number;
  readonly decisions: readonly Decision[];
  readonly handles: readonly string[];
  /** How many `herald_retrieve` calls Herald answered inside the turn. */
  readonly retrievals: number;
  /** Calls Herald answered inside the turn, per own tool (retrievals included); absent when none. */
  readonly ownToolCalls?: Readonly<Record<string, number>>;
  /** The provider's usage figures, summed over every round of the turn, when the target reported them. */
  readonly usage?: ProviderUsage;
  /** `herald_retrieve` calls the model addressed to the caller's own tool of that name (passed through, counted). */
  readonly callerRetrievals?: number;
  /** Requests sent to the target for this turn: the first, plus one per round of Herald's own tool answers. */
  readonly rounds?: number;
  /** How the target bills (premium requests, tokens, unknown). */
  readonly billing?: BillingKind;
  /** Premium requests this turn spent: every round sent to a Copilot-hosted model (each is user-initiated). */
  readonly premiumRequests?: number;
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
  /** Herald's estimate in USD of the same turn without Herald: the original request sent once (`withoutHerald` priced). */
  readonly unoptimizedUsd: number;
  /** The usage Herald estimates the provider would have billed for that one request, in the provider's units; absent on older records and for Herald's own calls. */
  readonly withoutHerald?: ProviderUsage;
}

export interface RequestFlowInput {
  readonly id: string;
  readonly request: ChatRequest;
  readonly target: ForwardTarget;
  /**
   * Runs the pipeline; undefined when the optimizer is off. `targetKind` is set when the flow
   * will answer Herald's own tools in this turn (pass it on to the pipeline's run options):
   * tool_catalog offers its loader only then. `firstMarkerRisk`: how often this host's client has
   * asked for a session's first marker so far (`firstMarkerRate.ts`; pass it to the run options).
   */
  readonly optimize: ((request: ChatRequest, windowTokens: number, signal: AbortSignal, targetKind?: TargetKind, firstMarkerRisk?: number) => Promise<PipelineResult>) | undefined;
  /** The original behind a handle, or undefined. */
  readonly retrieve: (handle: string) => Promise<string | undefined>;
  /** Hands a chunk to the caller as soon as it is final. */
  readonly report: (chunk: ResponseChunk) => void;
  readonly signal: AbortSignal;
  /** Most rounds of answers to Herald's own tools in one turn (`herald.retrieve.maxRounds`); 0 offers none of them. */
  readonly retrieveRounds: number;
  /** Herald's own in-turn tools; default {@link OWN_TOOLS}. */
  readonly ownTools?: readonly OwnTool[];
  /** Sessions whose first request went out as the client sent it (`rawSessions.ts`); default the process's own record. */
  readonly rawSessions?: RawSessions;
  /** How often the client's model asks for what a session's first marker hides (`firstMarkerRate.ts`); default the process's own record. */
  readonly firstMarkerRate?: FirstMarkerRate;
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
  /**
   * Records tools `herald_load_tools` loaded in a session (see `recordLoadedTools` of the
   * tool_catalog strategy); without it a load still works for the turn, but the next request
   * lists those tools in the catalog again.
   */
  readonly loadTools?: (sessionId: string, names: readonly string[]) => void;
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
  const markerRate = input.firstMarkerRate ?? FIRST_MARKER_RATE;
  let result: PipelineResult | undefined;
  let error: string | undefined;
  if (input.optimize) {
    try {
      result = await input.optimize(input.request, input.target.information.maxInputTokens, input.signal, targetKindOf(input), markerRate.risk());
      request = result.request;
      if (result.elisions.length > 0) markerRate.shown(result.sessionId);
    } catch (failure) {
      status = 'forwarded-original';
      error = describeError(failure);
      input.logger.error('pipeline-failed', `Herald: the optimizer failed, the original request was forwarded: ${error}`);
    }
  }
  // A session whose first request went out as it came keeps the client's tools block (rawSessions.ts).
  const rawSessions = input.rawSessions ?? RAW_SESSIONS;
  if (input.optimize) rawSessions.note(input.request, result === undefined);
  const clientToolsBlock = result !== undefined && rawSessions.has(input.request);
  if (clientToolsBlock) request = { ...request, tools: input.request.tools };
  const tokensBefore = result?.tokensBefore ?? input.countTokens(input.request);
  // What each round sent, counted as it goes out (own tools and the rounds' answers included).
  const roundTokens: number[] = [];
  const ownToolCalls: Record<string, number> = {};
  let usage: ProviderUsage | undefined;
  let callerRetrievals = 0;
  let rounds = 0;
  const billing = input.target.information.billing ?? 'unknown';
  const record = (): RequestRecord => ({
    id: input.id,
    startedAt,
    model: input.target.information.name,
    family: input.target.information.family,
    status,
    ...turnTokens(tokensBefore, roundTokens, usage, status === 'served-from-cache' ? 0 : result?.tokensAfter ?? tokensBefore),
    optimizeMs: result?.durationMs ?? 0,
    totalMs: now() - startedAt,
    decisions: result?.decisions ?? [],
    handles: [...new Set((result?.decisions ?? []).flatMap((decision) => decision.handles))],
    retrievals: ownToolCalls[RETRIEVE_TOOL_NAME] ?? 0,
    ...(Object.keys(ownToolCalls).length > 0 ? { ownToolCalls: { ...ownToolCalls } } : {}),
    ...(usage ? { usage } : {}),
    callerRetrievals,
    rounds,
    billing,
    // Each round is one request the target bills; to a Copilot-hosted model, one premium request.
    premiumRequests: billing === 'premium-requests' ? rounds : 0,
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

  const context = (current: ChatRequest): OwnToolContext => ({
    original: input.request,
    request: current,
    optimized: result !== undefined,
    target: input.target.information,
    sessionId: result?.sessionId,
    retrieve: input.retrieve,
    ...(input.loadTools && result ? { loadTools: (names: readonly string[]) => input.loadTools!(result!.sessionId, names) } : {}),
    ...(input.optimize && result ? { currentTools: () => toolsNow(input) } : {}),
    signal: input.signal,
  });
  // A client's pointer back to a result Herald elided gets that result's text.
  if (result) {
    try {
      request = await answerClientPointers(request, input.retrieve);
    } catch (failure) {
      input.logger.warn('client-pointers-failed', `Herald: a pointer to an elided result could not be answered: ${describeError(failure)}`);
    }
  }
  const offered = offerOwnTools(input, request, context, !clientToolsBlock);
  request = offered.request;
  const own = offered.active;
  // No retrieve tool for the model: no marker may promise one.
  if (result && !own.has(RETRIEVE_TOOL_NAME) && !input.request.tools.some((tool) => tool.name === RETRIEVE_TOOL_NAME)) request = requestWithoutRetrievePromise(request);

  // What the caller saw, kept for semantic_cache; an answer with parts Herald cannot store is not kept.
  const seen: CachedAnswer['chunks'][number][] = [];
  let storable = true;
  try {
    for (let round = 0; ; round++) {
      if (input.signal.aborted) break;
      const answerOwn = own.size > 0 && round < input.retrieveRounds;
      const text: string[] = [];
      const ownCalls: ToolCallChunk[] = [];
      // The caller's tool calls (and their early events), held back while Herald may still answer its own.
      const held: ResponseChunk[] = [];
      let foreignCalls = 0;
      // The answer's closing events wait for the end of the round: a further round continues the same answer.
      const closing: ResponseChunk[] = [];
      rounds++;
      roundTokens.push(input.countTokens(request));
      for await (const chunk of input.target.send(request, input.signal)) {
        if (chunk.type === 'wire') {
          if (chunk.call && own.has(chunk.call.name)) continue;
          if (chunk.call && answerOwn) held.push(chunk);
          else if (chunk.phase === 'closing') closing.push(chunk);
          else if (chunk.phase !== 'opening' || round === 0) input.report(chunk);
          continue;
        }
        if (chunk.type === 'usage') {
          usage = addUsage(usage, chunk.usage);
          input.report(chunk);
          continue;
        }
        if (chunk.type === 'tool_call' && chunk.name === RETRIEVE_TOOL_NAME) {
          if (!own.has(chunk.name)) callerRetrievals++;
          if (result) markerRate.asked(result.sessionId);
        }
        if (chunk.type === 'tool_call' && own.has(chunk.name)) {
          // Herald's own tool: answered here, never shown to the caller (past the round limit it is dropped).
          if (answerOwn) ownCalls.push(chunk);
          continue;
        }
        if (chunk.type === 'tool_call' && answerOwn) {
          // Held back until the answer is complete: if the model also asks Herald, the order of calls stays intact.
          held.push(chunk);
          foreignCalls++;
          continue;
        }
        if (chunk.type === 'text') text.push(chunk.text);
        if (chunk.type === 'other') storable = false;
        else seen.push(contentOf(chunk));
        input.report(chunk);
      }
      const continuing = ownCalls.length > 0 && foreignCalls === 0 && !input.signal.aborted;
      if (!continuing) {
        // The caller's own tools win: it answers them and the model can ask Herald again next turn.
        for (const chunk of held) {
          if (chunk.type === 'tool_call') seen.push(contentOf(chunk));
          input.report(chunk);
        }
        for (const chunk of closing) input.report(chunk);
        break;
      }
      const calls: OwnToolRound['calls'][number][] = [];
      const revisions: NonNullable<OwnToolAnswer['revise']>[] = [];
      for (const call of ownCalls) {
        const answer = await answerOwnCall(own.get(call.name)!, call, context(request), input.logger);
        calls.push({ call, answer: answer.text, ...(answer.isError ? { isError: true } : {}) });
        if (answer.revise) revisions.push(answer.revise);
        ownToolCalls[call.name] = (ownToolCalls[call.name] ?? 0) + 1;
      }
      const answered: OwnToolRound = { text: text.join(''), calls };
      request = input.target.continueAfter ? input.target.continueAfter(request, answered) : neutralContinuation(request, answered);
      for (const revise of revisions) request = revise(request);
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

/**
 * Adds the own tools offered for this request and names every own tool the flow answers: one
 * it offered, or one a strategy already put in the request, never one the caller brought.
 */
function offerOwnTools(input: RequestFlowInput, request: ChatRequest, context: (request: ChatRequest) => OwnToolContext, mayOffer: boolean): { request: ChatRequest; active: Map<string, OwnTool> } {
  const active = new Map<string, OwnTool>();
  const callerTools = new Set(input.request.tools.map((tool) => tool.name));
  const canOffer = mayOffer && input.retrieveRounds > 0 && input.target.information.toolCalling !== false;
  const added: ToolDefinition[] = [];
  for (const tool of input.ownTools ?? OWN_TOOLS) {
    if (callerTools.has(tool.name) || active.has(tool.name)) continue;
    if (request.tools.some((candidate) => candidate.name === tool.name)) {
      active.set(tool.name, tool);
      continue;
    }
    if (!canOffer) continue;
    const definition = tool.offer(context(request));
    if (!definition) continue;
    added.push(definition.name === tool.name ? definition : { ...definition, name: tool.name });
    active.set(tool.name, tool);
  }
  return { request: added.length > 0 ? { ...request, tools: [...request.tools, ...added] } : request, active };
}

/**
 * The target kind the pipeline is told, when the flow can answer Herald's own tools (rounds
 * allowed, the target calls tools): billed by the token, or per request (Copilot-hosted, and a
 * model whose billing is not known, the cautious reading).
 */
function targetKindOf(input: RequestFlowInput): TargetKind | undefined {
  if (input.retrieveRounds <= 0 || input.target.information.toolCalling === false) return undefined;
  return input.target.information.billing === 'tokens' ? 'endpoint' : 'copilot-hosted';
}

/** The tools block the pipeline gives the caller's request now (its history replays from the memo); undefined when it fails. */
async function toolsNow(input: RequestFlowInput): Promise<readonly ToolDefinition[] | undefined> {
  try {
    return (await input.optimize!(input.request, input.target.information.maxInputTokens, input.signal, targetKindOf(input), (input.firstMarkerRate ?? FIRST_MARKER_RATE).risk())).request.tools;
  } catch (failure) {
    input.logger.warn('pipeline-failed', `Herald: the optimizer could not give the tools block after a load: ${describeError(failure)}`);
    return undefined;
  }
}

/** One own call answered; a tool that throws answers with the failure instead (the turn goes on). */
async function answerOwnCall(tool: OwnTool, call: ToolCallChunk, context: OwnToolContext, logger: Logger): Promise<OwnToolAnswer> {
  try {
    return await tool.answer(call.input, context);
  } catch (failure) {
    logger.warn('own-tool-failed', `Herald: ${tool.name} could not answer: ${describeError(failure)}`);
    return { text: `Herald: ${tool.name} failed (${describeError(failure)}); continue without it.`, isError: true };
  }
}

/** The next round for a target without its own continuation: the model's text and calls, then the answers. */
function neutralContinuation(request: ChatRequest, round: OwnToolRound): ChatRequest {
  const assistant: ChatMessage = {
    role: 'assistant',
    parts: [...(round.text.length > 0 ? [{ type: 'text' as const, text: round.text }] : []), ...round.calls.map(({ call }): Part => ({ type: 'tool_call', id: call.id, name: call.name, arguments: call.input }))],
    contentShape: 'parts',
  };
  const answers = round.calls.map(({ call, answer, isError }): Part => ({ type: 'tool_result', callId: call.id, content: [{ type: 'text', text: answer }], contentShape: 'parts', ...(isError ? { isError } : {}) }));
  return { ...request, messages: [...request.messages, assistant, { role: 'user', parts: answers, contentShape: 'parts' }] };
}

/** A chunk as semantic_cache keeps it: its content, without the wire it came in. */
function contentOf(chunk: Extract<ResponseChunk, { type: 'text' | 'tool_call' }>): CachedAnswer['chunks'][number] {
  return chunk.type === 'text' ? { type: 'text', text: chunk.text } : { type: 'tool_call', id: chunk.id, name: chunk.name, input: chunk.input };
}

/**
 * A turn's before and after: Herald's counts over every round, or, when the provider reported its
 * input, the provider's figure after and Herald's before scaled by the provider's count of what
 * was sent over Herald's (the same tokenizer on both sides of the saving).
 */
function turnTokens(before: number, rounds: readonly number[], usage: ProviderUsage | undefined, unsent: number): Pick<RequestRecord, 'tokensBefore' | 'tokensAfter' | 'countedTokens' | 'roundTokens'> {
  if (rounds.length === 0) return { tokensBefore: before, tokensAfter: unsent };
  const counted = rounds.reduce((sum, tokens) => sum + tokens, 0);
  const billed = usage ? totalInputTokens(usage) : 0;
  if (billed === 0 || counted === 0) return { tokensBefore: before, tokensAfter: counted, roundTokens: [...rounds] };
  return { tokensBefore: Math.round((before * billed) / counted), tokensAfter: billed, countedTokens: { before, after: counted }, roundTokens: [...rounds] };
}

function addUsage(total: ProviderUsage | undefined, next: ProviderUsage): ProviderUsage {
  const sum = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  const fields = {
    inputTokens: sum(total?.inputTokens, next.inputTokens),
    outputTokens: sum(total?.outputTokens, next.outputTokens),
    cacheReadTokens: sum(total?.cacheReadTokens, next.cacheReadTokens),
    cacheWriteTokens: sum(total?.cacheWriteTokens, next.cacheWriteTokens),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as ProviderUsage;
}

/** The record a failed request carried when the target threw. */
export function recordOfFailure(error: unknown): RequestRecord | undefined {
  const record = (error as { heraldRecord?: RequestRecord } | undefined)?.heraldRecord;
  return record;
}

function qualityOf(decisions: readonly Decision[]): string | undefined {
  const decision = decisions.find((candidate) => candidate.strategy === 'context_quality');
  if (!decision) return undefined;
  const verdict = decision.details?.verdict ?? decision.details?.quality ?? decision.details?.score;
  return verdict !== undefined ? String(verdict) : decision.action;
}


/**
 * A client's session replayed request by request through a pipeline, measured as the provider
 * bills it, with the tools block counted: billed tokens, cost with prompt caching priced in
 * (the tools block first, then the messages: a changed tools block invalidates the whole cached
 * prefix), prefix stability (the tools block included), losslessness, whether every tool the
 * next reply called was still reachable, facts still shown, and time.
 *
 * The client itself changes history at times (Copilot moves its cache breakpoints and changes
 * its system prompt between prompts; Claude Code starts again after a compaction). Cache hints
 * are not content (the provider's cached prefix is the content), so messages are compared
 * without them; and Herald is held to the client's own stability: the optimized messages must
 * repeat the previous optimized request up to where the client's own messages stopped
 * repeating the previous request, or up to the previous request's fresh input (its last
 * message, or the whole batch of parallel tool results), which becomes history now.
 */
import { contentKey } from '../../../src/core/chat/cacheHints';
import type { ChatRequest, ToolDefinition } from '../../../src/core/chat/types';
import { freshStartOf, type Pipeline } from '../../../src/core/pipeline';
import type { Decision } from '../../../src/core/pipeline/types';
import type { Stash } from '../../../src/core/stash/stash';
import type { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { factRecall } from '../factRecall';
import { pricersFor, type SessionPricers } from '../cachePricing';
import { expandsBack } from '../replay';
import type { ClientSession } from './types';

export interface ClientReplayTurn {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Tokens of the tools block, before and after. */
  readonly toolTokensBefore: number;
  readonly toolTokensAfter: number;
  /** Cost units (1 = one fresh input token) with caching priced as the session's provider bills it. */
  readonly cachedCostBefore: number;
  readonly cachedCostAfter: number;
  /** The same under the other provider's rule, for comparison. */
  readonly cachedCostBeforeOther: number;
  readonly cachedCostAfterOther: number;
  /** The optimized messages repeat the previous optimized request as far as the client's own did. */
  readonly prefixStable: boolean;
  /** The optimized tools block changed where the client's did not (the provider's whole cached prefix is lost). */
  readonly toolsBlockChanged: boolean;
  readonly lossless: boolean;
  /** Tools the reply called, and how many of them the optimized request offered or could load. */
  readonly called: number;
  readonly calledReachable: number;
  /** Names the reply called that the optimized request could not reach. */
  readonly unreachable: readonly string[];
  readonly factsUsed: number;
  readonly factsVisible: number;
  readonly durationMs: number;
  readonly decisions: readonly Decision[];
  readonly summarization: boolean;
  readonly optimized: ChatRequest;
}

export interface ClientReplaySummary {
  readonly turns: readonly ClientReplayTurn[];
  /** Whose cache rule priced the session. */
  readonly provider: SessionPricers['provider'];
  /** Requests that carried more cache breakpoints than Anthropic accepts, before and after. */
  readonly overBreakpointLimit: { readonly before: number; readonly after: number };
}

/** Every turn, summed. */
export interface ClientReplayTotals {
  requests: number;
  tokensBefore: number;
  tokensAfter: number;
  toolTokensBefore: number;
  toolTokensAfter: number;
  costBefore: number;
  costAfter: number;
  costBeforeOther: number;
  costAfterOther: number;
  stable: number;
  toolsBlockChanges: number;
  lossless: number;
  called: number;
  calledReachable: number;
  factsUsed: number;
  factsVisible: number;
  readonly durations: number[];
  readonly unreachable: string[];
}

export function emptyTotals(): ClientReplayTotals {
  return { requests: 0, tokensBefore: 0, tokensAfter: 0, toolTokensBefore: 0, toolTokensAfter: 0, costBefore: 0, costAfter: 0, costBeforeOther: 0, costAfterOther: 0, stable: 0, toolsBlockChanges: 0, lossless: 0, called: 0, calledReachable: 0, factsUsed: 0, factsVisible: 0, durations: [], unreachable: [] };
}

export function addTurn(totals: ClientReplayTotals, turn: ClientReplayTurn): void {
  totals.requests++;
  totals.tokensBefore += turn.tokensBefore;
  totals.tokensAfter += turn.tokensAfter;
  totals.toolTokensBefore += turn.toolTokensBefore;
  totals.toolTokensAfter += turn.toolTokensAfter;
  totals.costBefore += turn.cachedCostBefore;
  totals.costAfter += turn.cachedCostAfter;
  totals.costBeforeOther += turn.cachedCostBeforeOther;
  totals.costAfterOther += turn.cachedCostAfterOther;
  if (turn.prefixStable) totals.stable++;
  if (turn.toolsBlockChanged) totals.toolsBlockChanges++;
  if (turn.lossless) totals.lossless++;
  totals.called += turn.called;
  totals.calledReachable += turn.calledReachable;
  totals.factsUsed += turn.factsUsed;
  totals.factsVisible += turn.factsVisible;
  totals.durations.push(turn.durationMs);
  totals.unreachable.push(...turn.unreachable);
}

export async function replayClientSession(pipeline: Pipeline, stash: Stash, session: ClientSession, tokens: TokenCounter): Promise<ClientReplaySummary> {
  const turns: ClientReplayTurn[] = [];
  let previousOriginal: ChatRequest | undefined;
  let previousOptimized: ChatRequest | undefined;
  const first = session.requests[0]?.request;
  const before = first ? pricersFor(first, tokens) : undefined;
  const after = first ? pricersFor(first, tokens) : undefined;
  for (const entry of session.requests) {
    const request = entry.request;
    const result = await pipeline.run(request);
    const optimized = session.roundTrip(result.request);
    const clientRepeats = previousOriginal ? sharedPrefix(previousOriginal, request) : 0;
    const heraldRepeats = previousOptimized ? sharedPrefix(previousOptimized, optimized) : 0;
    // The previous request's fresh input (its last message, or the whole batch of parallel results) may be decided again as history.
    const expected = previousOriginal ? Math.min(clientRepeats, freshStartOf(previousOriginal.messages)) : 0;
    const clientToolsSame = previousOriginal ? toolsKey(previousOriginal.tools) === toolsKey(request.tools) : true;
    const heraldToolsSame = previousOptimized ? toolsKey(previousOptimized.tools) === toolsKey(optimized.tools) : true;
    const reachable = entry.calledTools.filter((name) => reachableIn(optimized.tools, name));
    const recall = entry.reply ? factRecall(request.messages, optimized.messages, entry.reply) : { used: 0, visible: 0 };
    turns.push({
      tokensBefore: result.tokensBefore,
      tokensAfter: tokens.countRequest(optimized),
      toolTokensBefore: toolTokens(request.tools, tokens),
      toolTokensAfter: toolTokens(optimized.tools, tokens),
      cachedCostBefore: before!.own.bill(request).cost,
      cachedCostAfter: after!.own.bill(optimized).cost,
      cachedCostBeforeOther: before!.other.bill(request).cost,
      cachedCostAfterOther: after!.other.bill(optimized).cost,
      prefixStable: heraldRepeats >= expected && (!clientToolsSame || heraldToolsSame),
      toolsBlockChanged: clientToolsSame && !heraldToolsSame,
      lossless: await expandsBack(request, optimized, stash, result.elisions),
      called: entry.calledTools.length,
      calledReachable: reachable.length,
      unreachable: entry.calledTools.filter((name) => !reachableIn(optimized.tools, name)),
      factsUsed: recall.used,
      factsVisible: recall.visible,
      durationMs: result.durationMs,
      decisions: result.decisions,
      summarization: entry.summarization === true,
      optimized,
    });
    previousOriginal = request;
    previousOptimized = optimized;
  }
  return { turns, provider: before?.provider ?? 'openai', overBreakpointLimit: { before: before?.own.overLimit ?? 0, after: after?.own.overLimit ?? 0 } };
}

/** How many leading messages two requests share, compared without cache hints. */
export function sharedPrefix(a: ChatRequest, b: ChatRequest): number {
  let shared = 0;
  while (shared < a.messages.length && shared < b.messages.length && contentKey(a.messages[shared]!) === contentKey(b.messages[shared]!)) shared++;
  return shared;
}

function toolsKey(tools: readonly ToolDefinition[]): string {
  return JSON.stringify(tools);
}

function toolTokens(tools: readonly ToolDefinition[], tokens: TokenCounter): number {
  return tokens.countRequest({ format: 'neutral', messages: [], tools, options: {} });
}

/**
 * Whether a called tool is reachable in an optimized tools block: offered by name, or loadable
 * through a Herald catalog tool (a `herald_…` tool whose description or schema names it).
 */
export function reachableIn(tools: readonly ToolDefinition[], name: string): boolean {
  if (tools.some((tool) => tool.name === name)) return true;
  const word = new RegExp(`(^|[^\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`);
  return tools.some((tool) => tool.name.startsWith('herald_') && word.test(`${tool.description ?? ''}\n${JSON.stringify(tool.inputSchema ?? null)}`));
}

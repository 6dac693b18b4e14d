/**
 * Turn-by-turn replay of a conversation through a pipeline, measuring what a provider
 * bills: tokens, cost with prompt caching priced as the provider bills it (cachePricing.ts:
 * Anthropic's breakpoints for Claude traffic, OpenAI's longest earlier prefix for the rest),
 * prefix stability and losslessness.
 */
import { parseRequest, serializeRequest, type ChatMessage, type ChatRequest } from '../../src/core/chat';
import { partText } from '../../src/core/chat/types';
import { expandRequest, sitesFrom, type Pipeline, type RequestElisionSite } from '../../src/core/pipeline';
import type { Decision } from '../../src/core/pipeline/types';
import type { Stash } from '../../src/core/stash/stash';
import type { TokenCounter } from '../../src/core/tokens/tokenCounter';
import { pricersFor, type SessionPricers } from './cachePricing';
import { factRecall, freshFactRecall } from './factRecall';

export interface ReplayTurn {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Cost units (1 = one fresh input token) with caching priced as the provider bills it, before and after. */
  readonly cachedCostBefore: number;
  readonly cachedCostAfter: number;
  /** Every message of the previous optimized request but its last is repeated byte for byte. */
  readonly prefixStable: boolean;
  /** Every marker in the optimized request expands back to the original text. */
  readonly lossless: boolean;
  readonly durationMs: number;
  readonly decisions: readonly Decision[];
  readonly optimized: ChatRequest;
}

export interface ReplaySummary {
  readonly turns: readonly ReplayTurn[];
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly cachedCostBefore: number;
  readonly cachedCostAfter: number;
  readonly prefixStableTurns: number;
  readonly losslessTurns: number;
  /** Per strategy: tokens it removed, summed over every request (replayed history decisions included). */
  readonly savedByStrategy: Readonly<Record<string, number>>;
  /** Code-like facts each next reply took from history, and how many the optimized history still showed (see factRecall.ts). */
  readonly factsUsed: number;
  readonly factsVisible: number;
  /** The same for facts the next reply took from the fresh input (digested on arrival). */
  readonly freshFactsUsed: number;
  readonly freshFactsVisible: number;
}

export async function replay(pipeline: Pipeline, stash: Stash, bodies: readonly unknown[], tokens: TokenCounter): Promise<ReplaySummary> {
  const turns: ReplayTurn[] = [];
  let previousOptimized: readonly ChatMessage[] = [];
  let before: SessionPricers | undefined;
  let after: SessionPricers | undefined;
  let previousRequest: ChatRequest | undefined;
  const saved: Record<string, number> = {};
  let factsUsed = 0;
  let factsVisible = 0;
  let freshFactsUsed = 0;
  let freshFactsVisible = 0;
  for (const body of bodies) {
    const request = parseRequest(body);
    before ??= pricersFor(request, tokens);
    after ??= pricersFor(request, tokens);
    // The reply to the previous request is the assistant message that follows its messages here.
    const reply = previousRequest ? request.messages[previousRequest.messages.length] : undefined;
    if (previousRequest && reply?.role === 'assistant') {
      const recall = factRecall(previousRequest.messages, previousOptimized, reply);
      factsUsed += recall.used;
      factsVisible += recall.visible;
      const fresh = freshFactRecall(previousRequest.messages, previousOptimized, reply);
      freshFactsUsed += fresh.used;
      freshFactsVisible += fresh.visible;
    }
    const result = await pipeline.run(request);
    const optimized = result.request;
    // Round-trip through the wire format, as the host does before forwarding.
    const wire = parseRequest(JSON.parse(JSON.stringify(serializeRequest(optimized))));
    const prefixStable = previousOptimized.slice(0, -1).every((message, index) => JSON.stringify(message) === JSON.stringify(wire.messages[index]));
    const lossless = await expandsBack(request, wire, stash, result.elisions);
    turns.push({
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
      cachedCostBefore: before.own.bill(request).cost,
      cachedCostAfter: after.own.bill(wire).cost,
      prefixStable,
      lossless,
      durationMs: result.durationMs,
      decisions: result.decisions,
      optimized: wire,
    });
    for (const [id, tokens] of Object.entries(result.savedByStrategy)) saved[id] = (saved[id] ?? 0) + tokens;
    previousOptimized = wire.messages;
    previousRequest = request;
  }
  const sum = (pick: (turn: ReplayTurn) => number): number => turns.reduce((total, turn) => total + pick(turn), 0);
  return {
    turns,
    tokensBefore: sum((turn) => turn.tokensBefore),
    tokensAfter: sum((turn) => turn.tokensAfter),
    cachedCostBefore: sum((turn) => turn.cachedCostBefore),
    cachedCostAfter: sum((turn) => turn.cachedCostAfter),
    prefixStableTurns: turns.filter((turn) => turn.prefixStable).length,
    losslessTurns: turns.filter((turn) => turn.lossless).length,
    savedByStrategy: saved,
    factsUsed,
    factsVisible,
    freshFactsUsed,
    freshFactsVisible,
  };
}

/**
 * True when expanding the optimized request gives back `original`'s texts exactly: at the
 * elision sites the pipeline reported when given (a quoted copy of a real marker stays as it
 * is), else every marker found in the text.
 */
export async function expandsBack(original: ChatRequest, optimized: ChatRequest, stash: Stash, elisions?: readonly RequestElisionSite[]): Promise<boolean> {
  if (original.messages.length !== optimized.messages.length) return false;
  const expanded = elisions ? await expandRequest(optimized, stash, sitesFrom(elisions)) : undefined;
  for (let index = 0; index < original.messages.length; index++) {
    const a = original.messages[index]!;
    const b = optimized.messages[index]!;
    if (a.parts.length !== b.parts.length) return false;
    for (let part = 0; part < a.parts.length; part++) {
      const before = partText(a.parts[part]!);
      if (expanded) {
        if (partText(expanded.messages[index]!.parts[part]!) !== before) return false;
        continue;
      }
      const after = partText(b.parts[part]!);
      if (before === after) continue;
      if ((await stash.expandText(after)) !== before) return false;
    }
  }
  return true;
}

/**
 * Replays price prompt caching the way the provider bills it (src/core/costs/cacheBilling.ts),
 * request by request through one session: a request to a Claude model (or in Anthropic's wire
 * format) under Anthropic's rule, with the breakpoints the request carries (the client's and
 * Herald's); any other under OpenAI's longest-earlier-prefix rule. The other rule is priced
 * beside it for comparison: OpenAI's prefix rule for Anthropic traffic, Anthropic's automatic
 * caching (a breakpoint on the last block) for the rest.
 */
import type { ChatRequest } from '../../src/core/chat/types';
import { requestBlocks } from '../../src/core/costs/billingBlocks';
import { anthropicCacheRule, OPENAI_CACHE_RULE, ProviderCache, type BillingBlock, type CacheRule, type RequestBill } from '../../src/core/costs/cacheBilling';
import type { TokenCounter } from '../../src/core/tokens/tokenCounter';

/** Whether a request goes to Anthropic: a Claude model, or Anthropic's wire format. */
export function isAnthropicTraffic(request: ChatRequest): boolean {
  return request.format === 'anthropic' || /claude/i.test(request.model ?? '');
}

/** One session's requests priced in order under one rule. */
export class SessionPricer {
  private readonly cache: ProviderCache;
  /** Requests that carried more breakpoints than the provider accepts (it would reject them; priced with the last ones kept). */
  overLimit = 0;

  /** @param automatic Anthropic's automatic caching: a breakpoint on the last block of every request. */
  constructor(readonly rule: CacheRule, private readonly tokens: TokenCounter, private readonly automatic = false) {
    this.cache = new ProviderCache(rule);
  }

  bill(request: ChatRequest): RequestBill {
    let blocks: BillingBlock[] = requestBlocks(request, this.tokens);
    if (this.automatic && blocks.length > 0) blocks[blocks.length - 1] = { ...blocks[blocks.length - 1]!, breakpoint: true };
    if (this.rule.kind === 'breakpoints') {
      const marked = blocks.flatMap((block, index) => (block.breakpoint ? [index] : []));
      if (marked.length > this.rule.maxBreakpoints) {
        this.overLimit++;
        const dropped = new Set(marked.slice(0, marked.length - this.rule.maxBreakpoints));
        blocks = blocks.map((block, index) => (dropped.has(index) ? { key: block.key, tokens: block.tokens } : block));
      }
    }
    return this.cache.record({ blocks });
  }
}

/** The two pricers of one session: its provider's rule and the other, for comparison. */
export interface SessionPricers {
  readonly own: SessionPricer;
  readonly other: SessionPricer;
  /** 'anthropic' or 'openai': whose rule `own` is. */
  readonly provider: 'anthropic' | 'openai';
}

/** Pricers for a session, chosen by its first request. */
export function pricersFor(first: ChatRequest, tokens: TokenCounter): SessionPricers {
  if (isAnthropicTraffic(first)) return { provider: 'anthropic', own: new SessionPricer(anthropicCacheRule(first.model ?? ''), tokens), other: new SessionPricer(OPENAI_CACHE_RULE, tokens) };
  return { provider: 'openai', own: new SessionPricer(OPENAI_CACHE_RULE, tokens), other: new SessionPricer(anthropicCacheRule('claude-sonnet-4-5'), tokens, true) };
}

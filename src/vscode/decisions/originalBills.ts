/**
 * What the provider would have billed for each original request without Herald, as its cache
 * bills it (`core/costs/cacheBilling.ts`): per target, the originals run through the provider's
 * cache rule in the order they came, so a turn's original reads what the turn before it left in
 * the cache, exactly as it would have without Herald. Pure (no `vscode`).
 *
 * A conversation this window has not seen from its start (after a reload, or a long one that
 * outgrew the model's memory) would otherwise look uncached and make "without Herald" look
 * dearer than it was: when the history of an original finds nothing in the cache, the turn
 * before it (the same request up to its last answer) is recorded first, as the provider would
 * have received it.
 */
import { createHash } from 'node:crypto';
import type { ChatRequest } from '../../core/chat/types';
import { requestBlocks } from '../../core/costs/billingBlocks';
import { cacheRuleOf, ProviderCache, type BillingBlock, type CacheProvider, type RequestBill } from '../../core/costs/cacheBilling';
import type { TokenCounter } from '../../core/tokens/tokenCounter';

/** Requests one target's cache model takes before it starts over (its keys are hashes, but the trie still grows). */
const REQUESTS_PER_CACHE = 2_000;
/** Anthropic's limit of cache breakpoints in one request. */
const MAX_MARKS = 4;

export class OriginalBills {
  private readonly caches = new Map<string, { cache: ProviderCache; requests: number }>();

  constructor(private readonly tokens: TokenCounter) {}

  /**
   * The original's input as `provider` would bill it (in Herald's counts, summing to the
   * request's `countRequest`), and kept as what the provider now holds for the next turn.
   */
  bill(targetId: string, provider: CacheProvider, original: ChatRequest): RequestBill | undefined {
    try {
      return this.record(targetId, provider, original);
    } catch {
      // A request the model cannot bill (more breakpoints than the provider accepts): the estimate falls back to the turn's billed mix.
      return undefined;
    }
  }

  private record(targetId: string, provider: CacheProvider, original: ChatRequest): RequestBill {
    let entry = this.caches.get(targetId);
    if (!entry || entry.requests >= REQUESTS_PER_CACHE) {
      entry = { cache: new ProviderCache(cacheRuleOf(provider)), requests: 0 };
      this.caches.set(targetId, entry);
    }
    const request = provider === 'anthropic' ? { ...original, format: 'anthropic' as const } : original;
    const blocks = hashed(requestBlocks(request, this.tokens));
    const history = historyBlocks(request, blocks, this.tokens);
    if (history && entry.cache.quote({ blocks: history }).cacheReadTokens === 0 && entry.cache.quote({ blocks }).cacheReadTokens === 0) {
      entry.cache.record({ blocks: history });
      entry.requests++;
    }
    entry.requests++;
    return entry.cache.record({ blocks });
  }
}

/**
 * The blocks of the turn before this one (the request up to its last assistant message, the
 * answer not yet part of it), with a breakpoint on its end when the request uses breakpoints at
 * all (a client that marks its messages marked that one's newest); undefined for a conversation's
 * first turn.
 */
function historyBlocks(request: ChatRequest, blocks: readonly BillingBlock[], tokens: TokenCounter): BillingBlock[] | undefined {
  let lastAnswer = -1;
  request.messages.forEach((message, index) => {
    if (message.role === 'assistant') lastAnswer = index;
  });
  if (lastAnswer <= 0) return undefined;
  const previous = hashed(requestBlocks({ ...request, messages: request.messages.slice(0, lastAnswer) }, tokens));
  if (previous.length === 0 || previous.length >= blocks.length) return undefined;
  const marks = blocks.filter((block) => block.breakpoint).length;
  if (marks === 0 || previous.filter((block) => block.breakpoint).length >= MAX_MARKS) return previous;
  const last = previous[previous.length - 1]!;
  return [...previous.slice(0, -1), { ...last, breakpoint: true }];
}

/** The blocks with their keys hashed: the cache model keeps every key, and a key is a block's whole JSON. */
function hashed(blocks: readonly BillingBlock[]): BillingBlock[] {
  return blocks.map((block) => ({ ...block, key: createHash('sha256').update(block.key).digest('base64url').slice(0, 24) }));
}

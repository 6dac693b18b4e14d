/**
 * How a provider bills the input of each request of one session once prompt caching is priced
 * in: one model, request by request, for the pipeline, the benches and every figure a user sees.
 *
 * A request is a sequence of blocks in the order the provider builds its prompt, each with a
 * content key (equal keys: equal bytes, cache hints left out), its token count and whether the
 * client put a cache breakpoint on it. The model keeps what the provider holds in cache after
 * each request of the session and bills the next one against it.
 *
 * **Anthropic** (Messages API; "Prompt caching", platform.claude.com/docs/en/build-with-claude/prompt-caching):
 * - The prompt is built tools, then system, then messages, and a cache entry covers the whole
 *   prefix up to and including the block that carries `cache_control`. Nothing else is written:
 *   content after the last breakpoint is billed as plain input (`input_tokens`: "tokens after
 *   the last cache breakpoint").
 * - At most four breakpoints a request (more is an error from the API, and from this model).
 * - To find a hit, the provider checks the prefix at each breakpoint and then at the block
 *   boundaries before it, up to 20 blocks back; an entry an earlier request wrote further back
 *   than that is not found from this breakpoint.
 * - A prefix shorter than the model's minimum cacheable length (1024 tokens for most models,
 *   2048 for the Haiku 3 family, 4096 for Opus 4.5 and Haiku 4.5) is not cached at all.
 * - Cache reads cost 0.1 of the base input price, writes 1.25 with the default 5-minute TTL
 *   (2 with the 1-hour TTL), plain input 1. The usage splits the request into
 *   `cache_read_input_tokens`, `cache_creation_input_tokens` and `input_tokens`: the longest
 *   prefix found is read, everything from there up to the last breakpoint is written, the rest
 *   is plain input.
 *
 * **OpenAI** (and most others that cache automatically; "Prompt caching",
 * platform.openai.com/docs/guides/prompt-caching, and OpenAI's "Prompt Caching 201"): every
 * prompt of 1024 tokens or more is cached, no breakpoints, no write premium. A later request
 * reads the longest prefix it shares with an earlier one, counted from 1024 tokens in steps of
 * 128 (`prompt_tokens_details.cached_tokens`: 0, 1024, 1152, 1280, …); cached tokens cost the
 * model's cached-input price (0.1 of input for the GPT-5 family, 0.25 for GPT-4.1, 0.5 for GPT-4o).
 * Matching is by whole blocks here: where a block differs, the tokens it shares with its earlier
 * version count as fresh (the provider matches token by token), so reads are never overstated.
 *
 * Entries never expire in this model: the sessions it prices run within the 5-minute TTL (the
 * OpenAI cache keeps prefixes 5 to 10 minutes, longer off-peak). Entries are per session: the
 * model holds only what this session's own requests wrote.
 */

/** One block of a request as the provider builds its prompt (a tool, a system block, a message's content block). */
export interface BillingBlock {
  /** Identity of the block's content: equal keys mean equal bytes (cache hints excluded). */
  readonly key: string;
  readonly tokens: number;
  /** The client (or Herald) put a cache breakpoint (`cache_control`) on this block. */
  readonly breakpoint?: boolean;
}

/** One request of a session, its blocks in prompt order. */
export interface BillingRequest {
  readonly blocks: readonly BillingBlock[];
}

/** Anthropic's rule: entries written only at breakpoints, found within a lookback. */
export interface BreakpointCacheRule {
  readonly kind: 'breakpoints';
  /** Price of a cached token read, per base input token. */
  readonly readPrice: number;
  /** Price of a token written to the cache, per base input token. */
  readonly writePrice: number;
  /** Most breakpoints one request may carry. */
  readonly maxBreakpoints: number;
  /** Block boundaries before a breakpoint checked for an earlier entry. */
  readonly lookbackBlocks: number;
  /** Least prefix length (tokens) that is cached at all. */
  readonly minCacheableTokens: number;
}

/** OpenAI's rule: the longest earlier prefix is read, in fixed increments, no write premium. */
export interface PrefixCacheRule {
  readonly kind: 'prefix';
  readonly readPrice: number;
  /** Least prompt (and least shared prefix) that is cached. */
  readonly minCachedTokens: number;
  /** Cached prefixes are counted in steps of this many tokens beyond the minimum. */
  readonly incrementTokens: number;
}

export type CacheRule = BreakpointCacheRule | PrefixCacheRule;

/** Anthropic, default 5-minute TTL, the 1024-token minimum of most models. */
export const ANTHROPIC_CACHE_RULE: BreakpointCacheRule = { kind: 'breakpoints', readPrice: 0.1, writePrice: 1.25, maxBreakpoints: 4, lookbackBlocks: 20, minCacheableTokens: 1024 };

/**
 * Anthropic's rule for one model: the minimum cacheable prefix is 4096 tokens for Opus 4.5 and
 * later and Haiku 4.5, 2048 for Sonnet 4.6 and the Haiku 3 family, 1024 for the others.
 */
export function anthropicCacheRule(model: string): BreakpointCacheRule {
  const name = model.toLowerCase();
  const minCacheableTokens = /opus-4-([5-9]|\d\d)|haiku-4/.test(name) ? 4096 : /sonnet-4-([6-9]|\d\d)|haiku-3/.test(name) ? 2048 : 1024;
  return { ...ANTHROPIC_CACHE_RULE, minCacheableTokens };
}

/** OpenAI, priced as the GPT-5 family (cached input at 0.1 of input). */
export const OPENAI_CACHE_RULE: PrefixCacheRule = { kind: 'prefix', readPrice: 0.1, minCachedTokens: 1024, incrementTokens: 128 };

/** The providers whose cache this model knows. */
export type CacheProvider = 'anthropic' | 'openai';

/** The cache rule of a provider ('openai' stands for every provider that caches prefixes automatically). */
export function cacheRuleOf(provider: CacheProvider): CacheRule {
  return provider === 'anthropic' ? ANTHROPIC_CACHE_RULE : OPENAI_CACHE_RULE;
}

/** What one request's input is billed as. */
export interface RequestBill {
  /** Input billed at the base price (Anthropic `input_tokens`; OpenAI `prompt_tokens − cached_tokens`). */
  readonly freshTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  /** All input tokens of the request, whatever their price. */
  readonly totalTokens: number;
  /** Cost in base input-token equivalents: fresh + read × readPrice + write × writePrice. */
  readonly cost: number;
}

interface TrieNode {
  readonly children: Map<string, TrieNode>;
  /** Anthropic: an entry was written for the prefix ending here. OpenAI: unused (every node is cached). */
  entry: boolean;
}

function newNode(): TrieNode {
  return { children: new Map(), entry: false };
}

/**
 * What a provider holds in cache for one session, and what the next request will cost against
 * it. `quote` prices a request without changing the cache (to price a prospective rewrite);
 * `record` prices it and keeps what the provider writes.
 */
export class ProviderCache {
  private readonly root = newNode();

  constructor(readonly rule: CacheRule) {}

  /** The bill for `request` against the cache as it stands; the cache is left as it is. */
  quote(request: BillingRequest): RequestBill {
    return this.bill(request, false);
  }

  /** The bill for `request`, then what it writes kept for the requests after it. */
  record(request: BillingRequest): RequestBill {
    return this.bill(request, true);
  }

  private bill(request: BillingRequest, commit: boolean): RequestBill {
    return this.rule.kind === 'breakpoints' ? this.billBreakpoints(request.blocks, this.rule, commit) : this.billPrefix(request.blocks, this.rule, commit);
  }

  /** Nodes of the prefixes the cache already knows, block by block, as far as they match. */
  private matchedPath(blocks: readonly BillingBlock[]): TrieNode[] {
    const path: TrieNode[] = [];
    let node = this.root;
    for (const block of blocks) {
      const next = node.children.get(block.key);
      if (!next) break;
      path.push(next);
      node = next;
    }
    return path;
  }

  /** Nodes for every prefix of `blocks` up to `last` (inclusive), created where missing. */
  private insertPath(blocks: readonly BillingBlock[], last: number): TrieNode[] {
    const path: TrieNode[] = [];
    let node = this.root;
    for (let index = 0; index <= last; index++) {
      const key = blocks[index].key;
      let next = node.children.get(key);
      if (!next) {
        next = newNode();
        node.children.set(key, next);
      }
      path.push(next);
      node = next;
    }
    return path;
  }

  private billBreakpoints(blocks: readonly BillingBlock[], rule: BreakpointCacheRule, commit: boolean): RequestBill {
    const cumulative = cumulativeTokens(blocks);
    const total = cumulative.length > 0 ? cumulative[cumulative.length - 1] : 0;
    const breakpoints: number[] = [];
    blocks.forEach((block, index) => {
      if (block.breakpoint) breakpoints.push(index);
    });
    if (breakpoints.length > rule.maxBreakpoints) {
      throw new RangeError(`Herald: a request carries ${breakpoints.length} cache breakpoints; the provider accepts at most ${rule.maxBreakpoints} and rejects the request.`);
    }
    const path = this.matchedPath(blocks);
    // The longest prefix holding an entry, among those each breakpoint's lookback reaches.
    let readEnd = -1;
    for (const breakpoint of breakpoints) {
      const lowest = Math.max(0, breakpoint - rule.lookbackBlocks);
      for (let position = Math.min(breakpoint, path.length - 1); position >= lowest && position > readEnd; position--) {
        if (path[position].entry) {
          readEnd = position;
          break;
        }
      }
    }
    const written = breakpoints.filter((breakpoint) => cumulative[breakpoint] >= rule.minCacheableTokens);
    const lastWritten = written.length > 0 ? written[written.length - 1] : -1;
    const readTokens = readEnd >= 0 ? cumulative[readEnd] : 0;
    const cachedEnd = lastWritten >= 0 ? cumulative[lastWritten] : 0;
    const writeTokens = Math.max(0, cachedEnd - readTokens);
    const freshTokens = total - Math.max(readTokens, cachedEnd);
    if (commit && lastWritten >= 0) {
      const inserted = this.insertPath(blocks, lastWritten);
      for (const breakpoint of written) inserted[breakpoint].entry = true;
    }
    return { freshTokens, cacheReadTokens: readTokens, cacheWriteTokens: writeTokens, totalTokens: total, cost: freshTokens + readTokens * rule.readPrice + writeTokens * rule.writePrice };
  }

  private billPrefix(blocks: readonly BillingBlock[], rule: PrefixCacheRule, commit: boolean): RequestBill {
    const cumulative = cumulativeTokens(blocks);
    const total = cumulative.length > 0 ? cumulative[cumulative.length - 1] : 0;
    const path = this.matchedPath(blocks);
    const shared = path.length > 0 ? cumulative[path.length - 1] : 0;
    const cacheReadTokens = shared < rule.minCachedTokens ? 0 : rule.minCachedTokens + Math.floor((shared - rule.minCachedTokens) / rule.incrementTokens) * rule.incrementTokens;
    if (commit && total >= rule.minCachedTokens && blocks.length > 0) this.insertPath(blocks, blocks.length - 1);
    const freshTokens = total - cacheReadTokens;
    return { freshTokens, cacheReadTokens, cacheWriteTokens: 0, totalTokens: total, cost: freshTokens + cacheReadTokens * rule.readPrice };
  }
}

function cumulativeTokens(blocks: readonly BillingBlock[]): number[] {
  const cumulative: number[] = [];
  let sum = 0;
  for (const block of blocks) {
    sum += block.tokens;
    cumulative.push(sum);
  }
  return cumulative;
}

/** Every request of one session billed in order, as the provider whose rule this is would bill it. */
export function billSession(requests: readonly BillingRequest[], rule: CacheRule): RequestBill[] {
  const cache = new ProviderCache(rule);
  return requests.map((request) => cache.record(request));
}

/** The sum of a session's bills. */
export function sumBills(bills: readonly RequestBill[]): RequestBill {
  let freshTokens = 0;
  let cacheReadTokens = 0;
  let cacheWriteTokens = 0;
  let totalTokens = 0;
  let cost = 0;
  for (const bill of bills) {
    freshTokens += bill.freshTokens;
    cacheReadTokens += bill.cacheReadTokens;
    cacheWriteTokens += bill.cacheWriteTokens;
    totalTokens += bill.totalTokens;
    cost += bill.cost;
  }
  return { freshTokens, cacheReadTokens, cacheWriteTokens, totalTokens, cost };
}

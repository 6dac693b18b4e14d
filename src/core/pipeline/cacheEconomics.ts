/**
 * What rewriting content the provider already holds in its prompt cache costs, priced with the
 * cache model of the target's provider (`costs/cacheBilling.ts`: Anthropic writes at 1.25 of
 * the input price and reads at 0.1; OpenAI and the providers that cache prefixes automatically
 * bill no write premium, a rewritten token is fresh input at 1, and read cached ones at 0.1).
 *
 * **The rule.** A history message that was in the previous request is cached as it stood.
 * Rewriting it from `o` tokens to `n` pays only when what it saves over the requests the session
 * can still be expected to run exceeds what it costs now:
 *
 *     saved  = read · (o − n) · R                      (R more requests read n instead of o)
 *     cost   = write · n − read · o                    (this request writes n instead of reading o)
 *            + (write − read) · S                      (the cached content after it, written again)
 *            + risk · (read · T + write · o)           (a retrieve round the elision may cause: the
 *                                                       whole request re-read, the original written)
 *
 * `S` counts the cached messages after the rewrite that this run has not already rewritten (one
 * rewrite makes the provider write everything after it; a second one behind it costs only its
 * own bytes), `T` the request's tokens. `R`, how many requests the session has left, is not
 * known when the message is decided and decide-once forbids waiting: the session's own length
 * so far stands in for it (a session that has run k requests is, as a rule, about halfway
 * through), within [{@link MIN_REMAINING_REQUESTS}, {@link MAX_REMAINING_REQUESTS}]. So a short
 * session only rewrites cached history where the saving is most of it (a mask), and a long one
 * where a third of it goes; early rewrites, which every later request reads, are held to the
 * strictest test. Anthropic's context editing (`clear_tool_uses`'s `clear_at_least`) makes the
 * same trade: clear only when enough is cleared to pay for the cache it breaks.
 *
 * The assistant's own messages are new in the request where they are first history (the model
 * wrote them after the previous request), and fresh input is new in this one: neither is
 * cached, so neither pays a cache write. **They still pay for the round.** An elision of content
 * the provider does not hold yet saves its tokens now and in the requests left, and risks the
 * same retrieve round, in which the model gets back the whole original:
 *
 *     saved  = (o − n) · (write + read · R)
 *     cost   = risk · (read · T + write · O)               (O: the original the retrieve returns)
 *
 * so a tidy that takes 75 tokens out of a 7,000-token system prompt does not pay (a round would
 * resend the whole prompt), while a digest that takes 2,600 tokens out of a 3,100-token log does.
 *
 * A pipeline configured with `cachedRewriteMinSavedShare` keeps the earlier fixed rule: a
 * rewrite must remove at least that share of the message.
 */
import type { ChatRequest } from '../chat/types';
import type { TokenCounter } from '../tokens/tokenCounter';
import { ANTHROPIC_CACHE_RULE, OPENAI_CACHE_RULE } from '../costs/cacheBilling';

/** Least share of a cached history message's tokens a rewrite must remove, in the fixed rule (`cachedRewriteMinSavedShare`). */
export const CACHED_REWRITE_MIN_SAVED_SHARE = 0.4;

/** Fewest requests a session is taken to have left (a session that has just begun is not assumed to end now). */
export const MIN_REMAINING_REQUESTS = 2;
/** Most requests a session is taken to have left (clients compact or end long before this). */
export const MAX_REMAINING_REQUESTS = 60;
/**
 * Chance that an elision of cached history makes the model ask for the original inside the
 * turn. Models rarely do (a few percent of markers in recorded sessions); a small figure keeps
 * the round in the price without letting it forbid every mask. A pessimistic start (the risk of
 * a session's next marker taken as 1 / (1 + markers shown so far)) was measured on the live
 * bench, whose agent retrieves every session's first marker: it brought Codex's short tasks to
 * within +0.9% of direct but halved the long tasks' saving (cached cost −37% → −14%), since
 * every output that became history before the first marker then stays whole for good.
 */
export const RETRIEVAL_RISK = 0.05;

/**
 * Requests a session that has shown no marker yet leaves its whole history undecided, so a later
 * run can still elide it once the session's first marker pays (see {@link firstMarkerGain}).
 * Past this many, elisions are no longer deferred and history is decided as it becomes history
 * again: a session that long has, as a rule, as many requests left to repay any round, and what
 * was deferred is decided as one batch with the run's other rewrites (see {@link batchGain}).
 */
export const FIRST_MARKER_DEFERRAL_REQUESTS = 10;

/** The prices of one provider's cache, per input token. */
export interface CachePrices {
  readonly read: number;
  /** A token of cached content written again (Anthropic: a cache write; OpenAI: fresh input). */
  readonly write: number;
}

/** Anthropic's prices for Anthropic-format requests; the automatic-prefix prices for the rest. */
export function cachePricesOf(request: Pick<ChatRequest, 'format'>): CachePrices {
  return request.format === 'anthropic' || request.format === 'vscode' || request.format === 'neutral'
    ? { read: ANTHROPIC_CACHE_RULE.readPrice, write: ANTHROPIC_CACHE_RULE.writePrice }
    : { read: OPENAI_CACHE_RULE.readPrice, write: 1 };
}

/** One prospective rewrite of cached content, in tokens. */
export interface RewriteQuote {
  readonly beforeTokens: number;
  readonly afterTokens: number;
  /** Cached tokens after it the provider would write again. */
  readonly suffixTokens: number;
  /** The whole request's tokens (what a retrieve round re-reads). */
  readonly requestTokens: number;
  readonly remainingRequests: number;
}

/** One prospective elision of content the provider does not hold yet (fresh input, the model's last answer), in tokens. */
export interface FreshQuote {
  readonly beforeTokens: number;
  readonly afterTokens: number;
  /** The original a retrieve would return (a digest elided again returns the output it digested). */
  readonly originalTokens: number;
  readonly requestTokens: number;
  readonly remainingRequests: number;
}

/** What eliding uncached content gains, the retrieve round it may cause priced in (negative: it costs). */
export function freshElisionGain(quote: FreshQuote, prices: CachePrices, risk = RETRIEVAL_RISK): number {
  const saved = (quote.beforeTokens - quote.afterTokens) * (prices.write + prices.read * quote.remainingRequests);
  return saved - risk * (prices.read * quote.requestTokens + prices.write * quote.originalTokens);
}

/** What the rewrite gains over leaving the content as the provider holds it, in input-token equivalents (negative: it costs). */
export function rewriteGain(quote: RewriteQuote, prices: CachePrices, risk = RETRIEVAL_RISK): number {
  const { beforeTokens: o, afterTokens: n } = quote;
  const saved = prices.read * (o - n) * quote.remainingRequests;
  const cost = prices.write * n - prices.read * o + (prices.write - prices.read) * quote.suffixTokens + risk * (prices.read * quote.requestTokens + prices.write * o);
  return saved - cost;
}

/** One run's elisions taken together: every message's tokens before and after the run's strategies. */
export interface BatchQuote {
  /** Tokens of each message before the run's strategies. */
  readonly before: readonly number[];
  /** Tokens of each message after them. */
  readonly after: readonly number[];
  /** Messages before this index were in the previous request (the provider holds them). */
  readonly cachedEnd: number;
  readonly remainingRequests: number;
}

/**
 * What a run's elisions gain together, before any retrieve round (negative: they cost). The cached
 * history from the earliest rewritten message to the end of the cache is written again once,
 * whichever strategy rewrote it; each message's saving runs over the requests left:
 *
 *     saved = Σ cached  read · (o − n) · R  +  Σ uncached (o − n) · (write + read · R)
 *     cost  = Σ from the earliest rewritten cached message (write · n − read · o)
 */
export function batchGain(quote: BatchQuote, prices: CachePrices): number {
  const { before, after, cachedEnd, remainingRequests: remaining } = quote;
  let gain = 0;
  let rewriting = false;
  for (let index = 0; index < before.length; index++) {
    const o = before[index]!;
    const n = after[index]!;
    if (index < cachedEnd) {
      rewriting ||= o !== n;
      if (rewriting) gain -= prices.write * n - prices.read * o;
      gain += prices.read * (o - n) * remaining;
    } else {
      gain += (o - n) * (prices.write + prices.read * remaining);
    }
  }
  return gain;
}

/** One run's elisions taken together, against the retrieve round a session's first marker may cause. */
export interface FirstMarkerQuote extends BatchQuote {
  /** The whole request's tokens after the run (what the round re-reads). */
  readonly requestTokens: number;
  /** The largest original a retrieve of one of the run's markers would return. */
  readonly originalTokens: number;
}

/**
 * What a run's elisions gain together when they are the first markers of their session, priced
 * with the round the first marker brings at `risk` (negative: they cost). An agent may well ask for
 * the first marker it meets (the live bench's does, every session); the host measures how often
 * its client's model does (`flow/firstMarkerRate.ts`) and starts from 1. After the first marker,
 * markers are familiar and the round is priced at {@link RETRIEVAL_RISK} per elision:
 *
 *     gain = batchGain − risk · (read · T + write · O)     (the round: the request re-read, the original written)
 */
export function firstMarkerGain(quote: FirstMarkerQuote, prices: CachePrices, risk = 1): number {
  return batchGain(quote, prices) - risk * (prices.read * quote.requestTokens + prices.write * quote.originalTokens);
}

/**
 * True when rewriting a history message (or one tool output in it) from `beforeTokens` to
 * `afterTokens` removes at least `minSavedShare` of it: the fixed rule.
 */
export function paysForCacheWrite(beforeTokens: number, afterTokens: number, minSavedShare: number): boolean {
  return beforeTokens - afterTokens >= minSavedShare * beforeTokens;
}

/**
 * One run's prices for rewriting cached history: where the cached content ends, how much of it
 * follows each message, how long the session is, and how far this run's rewrites already reach.
 */
export class RewriteEconomics {
  /** Tokens of messages [0, i) of the request, for every i. */
  private readonly prefix: number[];
  /** Messages before this index were in the previous request (the provider holds them). */
  readonly cachedEnd: number;
  readonly remainingRequests: number;
  /** Requests the session has run before this one (its assistant messages). */
  readonly requestsSoFar: number;
  readonly prices: CachePrices;
  /** The earliest cached message this run rewrote (everything after it is written again anyway). */
  private earliest = Number.POSITIVE_INFINITY;
  /**
   * The earliest cached message whose rewrite was refused only for the cached history after it
   * (it would have paid had that history been written again anyway): a run that rewrites from
   * there as one batch may gain more (see the pipeline's batch pass).
   */
  refusedForSuffix: number | undefined;

  /**
   * @param refuse true when this run's elisions are deferred (a session's first markers that do
   *   not pay for the round they may cause): every elision priced here is refused.
   * @param rewrittenFrom the cached history from this message on is taken as written again
   *   anyway (a batch pass): a rewrite after it pays for its own bytes only.
   */
  constructor(request: ChatRequest, freshStart: number, tokens: TokenCounter, private readonly minSavedShare?: number, private readonly refuse = false, rewrittenFrom?: number) {
    this.prefix = [0];
    for (const message of request.messages) this.prefix.push(this.prefix[this.prefix.length - 1]! + tokens.countMessage(message));
    let end = freshStart;
    while (end > 0 && request.messages[end - 1]!.role !== 'assistant') end--;
    // The assistant message before the fresh input is the model's last answer: new in this request.
    this.cachedEnd = Math.max(0, end - 1);
    this.requestsSoFar = request.messages.filter((message) => message.role === 'assistant').length;
    this.remainingRequests = Math.min(MAX_REMAINING_REQUESTS, Math.max(MIN_REMAINING_REQUESTS, this.requestsSoFar));
    this.prices = cachePricesOf(request);
    if (rewrittenFrom !== undefined) this.earliest = rewrittenFrom;
  }

  /**
   * Whether rewriting the output at `messageIndex` from `beforeTokens` to `afterTokens` pays;
   * records it when it does. `originalTokens`: what a retrieve of it would return, when that is
   * more than `beforeTokens`.
   */
  pays(messageIndex: number, beforeTokens: number, afterTokens: number, originalTokens = beforeTokens): boolean {
    if (this.refuse) return false;
    if (this.minSavedShare !== undefined) return paysForCacheWrite(beforeTokens, afterTokens, this.minSavedShare);
    if (messageIndex >= this.cachedEnd) return this.paysFresh(beforeTokens, afterTokens, originalTokens);
    const suffixEnd = Math.min(this.cachedEnd, this.earliest);
    const suffixTokens = suffixEnd > messageIndex + 1 ? this.prefix[suffixEnd]! - this.prefix[messageIndex + 1]! : 0;
    const quote = { beforeTokens, afterTokens, suffixTokens, requestTokens: this.prefix[this.prefix.length - 1]!, remainingRequests: this.remainingRequests };
    if (rewriteGain(quote, this.prices) <= 0) {
      if (suffixTokens > 0 && rewriteGain({ ...quote, suffixTokens: 0 }, this.prices) > 0) this.refusedForSuffix = Math.min(this.refusedForSuffix ?? messageIndex, messageIndex);
      return false;
    }
    this.earliest = Math.min(this.earliest, messageIndex);
    return true;
  }

  /** Whether the provider holds message `messageIndex` from the previous request. */
  isCached(messageIndex: number): boolean {
    return messageIndex < this.cachedEnd;
  }

  /** Whether eliding content the provider does not hold yet pays, the retrieve round it may cause priced in. */
  paysFresh(beforeTokens: number, afterTokens: number, originalTokens = beforeTokens): boolean {
    if (afterTokens >= beforeTokens || this.refuse) return false;
    if (this.minSavedShare !== undefined) return true;
    const quote = { beforeTokens, afterTokens, originalTokens: Math.max(beforeTokens, originalTokens), requestTokens: this.prefix[this.prefix.length - 1]!, remainingRequests: this.remainingRequests };
    return freshElisionGain(quote, this.prices) > 0;
  }
}

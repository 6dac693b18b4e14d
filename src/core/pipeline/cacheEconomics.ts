/**
 * What rewriting a history message costs once prompt caching is priced in.
 *
 * A tool output (or a user message) that becomes history was in the previous request as it
 * stood, so the provider holds it in its prompt cache. Left alone, it is billed as a cache read
 * (0.1 of a fresh input token) on each of the R requests it still appears in: 0.1·o·R for o
 * tokens. Rewritten to n tokens, it is billed as a cache write (1.25) once and as a read on the
 * R − 1 requests after: 1.25·n + 0.1·n·(R − 1). The rewrite pays only when it removes at least
 * 11.5 / (11.5 + R) of the message: 70% when 5 requests are left, 37% when 20 are, 25% when 35 are.
 *
 * How many requests are left is not known when the message is decided, and decide-once
 * forbids waiting. The default takes the break-even at about 17 requests left, which is what an
 * agent session of the length the benchmark replays (about 38 requests) has left on average
 * when a message becomes history. Providers that bill no cache write and read at a quarter or
 * half of the input price (OpenAI's) make smaller rewrites pay: the share is a setting.
 *
 * An assistant message is not subject to this: it is new in the request where it is first
 * history, billed as a write whatever its length, so shortening it pays from the first request.
 */

/** Least share of a cached history message's tokens a rewrite must remove to pay for its cache write (the default). */
export const CACHED_REWRITE_MIN_SAVED_SHARE = 0.4;

/**
 * True when rewriting a history message (or one tool output in it) from `beforeTokens` to
 * `afterTokens` removes at least `minSavedShare` of it: enough to pay for the cache write it causes.
 */
export function paysForCacheWrite(beforeTokens: number, afterTokens: number, minSavedShare: number): boolean {
  return beforeTokens - afterTokens >= minSavedShare * beforeTokens;
}

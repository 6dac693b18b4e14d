/**
 * When cutting a pasted block pays, priced with caching. A block pasted in the current turn is
 * fresh input: the provider writes it to its cache once (1.25 of an input token, Anthropic's
 * write; OpenAI bills 1.0) and reads it on every later turn (0.1). Cut on arrival to what answers
 * the question, it saves what it removes at the write price now and at the read price on each
 * later turn; the full text is never billed. What it risks is one `herald_retrieve` round: the
 * request's other tokens read again from the cache (0.1 each) and the original written (1.25).
 *
 *   pays ⇔ saved · (1.25 + 0.1 · laterTurns) > retrieveChance · (0.1 · otherTokens + 1.25 · pastedTokens)
 *
 * Priced for the worst case (no later turn, a retrieve one time in ten), a cut that keeps a third
 * of the block and adds a 40-token marker pays from about 100 tokens (400 characters) under a chat's
 * short prompt (2,000 other tokens) and from about 500 tokens (2,000 characters) under an agent's
 * (Claude Code's tools and prompt, some 30,000). Finding a paste is a function of the message alone
 * (its form must repeat on every turn), so `chat/pastedBulk.ts` looks from the smaller size, 400
 * characters and eight lines; each cut is then priced here with the request it is in.
 */

/** Write price of a fresh input token, in input-token units (Anthropic's cache write). */
export const CACHE_WRITE = 1.25;
/** Read price of a cached input token. */
export const CACHE_READ = 0.1;
/** How often the model is assumed to fetch a cut original back (one time in ten). */
export const RETRIEVE_CHANCE = 0.1;

export interface PastePrice {
  /** Tokens of the pasted block as it arrived. */
  readonly pastedTokens: number;
  /** Tokens of what replaces it (what is kept and the marker). */
  readonly keptTokens: number;
  /** Tokens of the rest of the request (system prompt, tools, the conversation). */
  readonly otherTokens: number;
  /** Later turns the block is expected to be read on (default 0: the worst case). */
  readonly laterTurns?: number;
}

/** True when cutting the block as priced pays for the retrieve round it risks (see the module comment). */
export function pastedCutPays(price: PastePrice): boolean {
  const saved = price.pastedTokens - price.keptTokens;
  if (saved <= 0) return false;
  const gain = saved * (CACHE_WRITE + CACHE_READ * (price.laterTurns ?? 0));
  const risk = RETRIEVE_CHANCE * (CACHE_READ * price.otherTokens + CACHE_WRITE * price.pastedTokens);
  return gain > risk;
}

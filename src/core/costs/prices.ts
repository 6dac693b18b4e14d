/**
 * List prices for common models and what a request cost at them. The table is a default the
 * user edits (`herald.prices`); a model it does not know gets no money figure, never a guess.
 *
 * Prices are USD per million tokens, as OpenAI's and Anthropic's pricing pages listed them when
 * {@link PRICES_CHECKED} was written: input, cached input (a cache read), cache write (Anthropic's
 * 5-minute write, 1.25× input; OpenAI bills none) and output.
 */
import { z } from 'zod';
import { fullUsage, type FullUsage, type ProviderUsage } from './usage';

/** When the default table was last checked against the providers' pricing pages. */
export const PRICES_CHECKED = '2026-12-01';

/** One model's prices, USD per million tokens. */
export const modelPriceSchema = z.strictObject({
  /** Fresh input tokens. */
  input: z.number().min(0),
  /** Input tokens read from the prompt cache. */
  cachedInput: z.number().min(0),
  /** Input tokens written to the prompt cache (0 where the provider bills none). */
  cacheWrite: z.number().min(0).default(0),
  /** Output tokens (reasoning included). */
  output: z.number().min(0),
});

export type ModelPrice = z.infer<typeof modelPriceSchema>;

/** Model id prefix → prices. The longest prefix of a model id wins ("gpt-4.1-mini" before "gpt-4.1"). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

export const DEFAULT_PRICES: PriceTable = {
  // OpenAI: cached input is a tenth to a half of input; no cache-write charge.
  'gpt-5.5': { input: 5, cachedInput: 0.5, cacheWrite: 0, output: 30 },
  'gpt-5.4': { input: 2.5, cachedInput: 0.25, cacheWrite: 0, output: 15 },
  'gpt-5.4-mini': { input: 0.75, cachedInput: 0.075, cacheWrite: 0, output: 4.5 },
  'gpt-5.4-nano': { input: 0.2, cachedInput: 0.02, cacheWrite: 0, output: 1.25 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, cacheWrite: 0, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, cacheWrite: 0, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, cacheWrite: 0, output: 0.4 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, cacheWrite: 0, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, cacheWrite: 0, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, cacheWrite: 0, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, cacheWrite: 0, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, cacheWrite: 0, output: 0.6 },
  o3: { input: 2, cachedInput: 0.5, cacheWrite: 0, output: 8 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, cacheWrite: 0, output: 4.4 },
  // Anthropic: cache reads 0.1× input, 5-minute cache writes 1.25× input.
  'claude-opus-4': { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  'claude-opus-4-5': { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25 },
  'claude-opus-4-6': { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25 },
  'claude-opus-4-7': { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25 },
  'claude-opus-4-8': { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25 },
  'claude-sonnet-4': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-3-7-sonnet': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-haiku-4-5': { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 },
  'claude-3-5-haiku': { input: 0.8, cachedInput: 0.08, cacheWrite: 1, output: 4 },
};

/** The table entry for a model id: the longest prefix of the id (case-insensitive, a `vendor/` prefix ignored). */
export function priceFor(model: string, table: PriceTable): { readonly key: string; readonly price: ModelPrice } | undefined {
  const id = model.toLowerCase().replace(/^[a-z0-9_-]+\//, '');
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    const prefix = key.toLowerCase();
    if (id.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = key;
  }
  return best === undefined ? undefined : { key: best, price: table[best]! };
}

/** USD the provider billed for this usage at these prices. */
export function usageCost(given: ProviderUsage, price: ModelPrice): number {
  const usage = fullUsage(given);
  return (usage.inputTokens * price.input + usage.cacheReadTokens * price.cachedInput + usage.cacheWriteTokens * price.cacheWrite + usage.outputTokens * price.output) / 1_000_000;
}

/** How the input of one request splits by price: fresh, read from the cache, written to it. */
export interface InputSplit {
  readonly freshTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** What Herald knows of a turn when it estimates the same turn without Herald. */
export interface TurnWithoutHerald {
  /** The provider's usage, summed over every round Herald sent. */
  readonly usage: ProviderUsage;
  /** Herald's count of the request as the caller sent it. */
  readonly tokensBefore: number;
  /** Herald's count of everything it sent, every round. */
  readonly tokensSent: number;
  /**
   * The original request's input as the provider's cache would have billed it (Herald's counts,
   * summing to `tokensBefore`): the cache model run over the originals sent before it. Without
   * it, the original is split in the proportions the provider billed this turn.
   */
  readonly original?: InputSplit;
  /** Output tokens of the round whose answer the caller got; without it, the turn's output. */
  readonly answerOutputTokens?: number;
}

/**
 * The usage the provider would have billed for the turn without Herald: the original request
 * sent once (no rounds of Herald's own tools), answered once. Herald's counts are put in the
 * provider's units by the ratio of what the provider counted to what Herald counted for the
 * same rounds, so a tokenizer Herald only approximates (Claude's) is measured by the provider's.
 */
export function withoutHeraldUsage(turn: TurnWithoutHerald): FullUsage {
  const usage = fullUsage(turn.usage);
  const providerInput = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const scale = turn.tokensSent > 0 && providerInput > 0 ? providerInput / turn.tokensSent : 1;
  const split: InputSplit = turn.original ?? billedMix(usage, providerInput, turn.tokensBefore);
  const cacheReadTokens = Math.round(split.cacheReadTokens * scale);
  const cacheWriteTokens = Math.round(split.cacheWriteTokens * scale);
  // Rounded as a whole, so the three parts add up to the original's size in the provider's units.
  const inputTokens = Math.max(0, Math.round((split.freshTokens + split.cacheReadTokens + split.cacheWriteTokens) * scale) - cacheReadTokens - cacheWriteTokens);
  return { inputTokens, cacheReadTokens, cacheWriteTokens, outputTokens: turn.answerOutputTokens ?? usage.outputTokens };
}

/** The original split in the proportions of fresh, read and written input the provider billed for the turn (all fresh when it billed none). */
function billedMix(usage: FullUsage, providerInput: number, tokens: number): InputSplit {
  if (providerInput <= 0) return { freshTokens: tokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
  return { freshTokens: (tokens * usage.inputTokens) / providerInput, cacheReadTokens: (tokens * usage.cacheReadTokens) / providerInput, cacheWriteTokens: (tokens * usage.cacheWriteTokens) / providerInput };
}

/**
 * The user's table over the defaults: entries the user wrote replace or add to the defaults;
 * an invalid entry is left out and reported.
 */
export function mergePriceTable(user: unknown): { readonly table: PriceTable; readonly problems: readonly string[] } {
  const table: Record<string, ModelPrice> = { ...DEFAULT_PRICES };
  const problems: string[] = [];
  if (user === undefined || user === null) return { table, problems };
  if (typeof user !== 'object' || Array.isArray(user)) return { table, problems: ['herald.prices: expected an object of model id prefix → { input, cachedInput, cacheWrite, output } in USD per million tokens; using the defaults'] };
  for (const [key, value] of Object.entries(user as Record<string, unknown>)) {
    const parsed = modelPriceSchema.safeParse(value);
    if (parsed.success) table[key] = parsed.data;
    else problems.push(`herald.prices["${key}"]: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}; this entry is ignored`);
  }
  return { table, problems };
}

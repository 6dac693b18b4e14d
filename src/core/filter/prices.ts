/**
 * Input prices per million tokens, in US dollars, as the providers publish them for their
 * standard tiers. Editable: pass your own table to `filter` (a key matches when the model
 * name starts with it; the longest key wins).
 */
export type PriceTable = Readonly<Record<string, number>>;

export const DEFAULT_INPUT_PRICES: PriceTable = {
  'gpt-4o-mini': 0.15,
  'gpt-4o': 2.5,
  'gpt-4.1-mini': 0.4,
  'gpt-4.1': 2.0,
  'gpt-5-mini': 0.25,
  'gpt-5': 1.25,
  'o3': 2.0,
  'claude-haiku-4': 1.0,
  'claude-sonnet-4': 3.0,
  'claude-opus-4-5': 5.0,
  'claude-opus-4': 15.0,
  'gemini-2.5-flash': 0.3,
  'gemini-2.5-pro': 1.25,
};

/** Price per million input tokens for a model, or undefined when the table does not know it. */
export function inputPrice(model: string | undefined, table: PriceTable = DEFAULT_INPUT_PRICES): number | undefined {
  if (!model) return undefined;
  const name = model.toLowerCase().replace(/^[a-z]+\//, '');
  let best: string | undefined;
  for (const key of Object.keys(table)) if (name.startsWith(key.toLowerCase()) && (!best || key.length > best.length)) best = key;
  return best === undefined ? undefined : table[best];
}

export function costOf(tokens: number, pricePerMillion: number | undefined): number | undefined {
  return pricePerMillion === undefined ? undefined : (tokens * pricePerMillion) / 1_000_000;
}

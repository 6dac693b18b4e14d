/**
 * What a provider says it billed for one request: its own usage figures, read from the
 * response, never estimated. Host-neutral (the VS Code endpoints and the gateway both read it).
 *
 * OpenAI (chat completions, `stream_options.include_usage`): `usage.prompt_tokens` includes
 * `usage.prompt_tokens_details.cached_tokens` (billed at the cached-input price); OpenAI bills
 * no cache write. Anthropic (messages): `usage.input_tokens` excludes the cache, which comes as
 * `cache_read_input_tokens` and `cache_creation_input_tokens`; streaming sends them in
 * `message_start` and the final output count in `message_delta`.
 */

import type { ProviderUsage } from '../flow/forwardTarget';

export type { ProviderUsage } from '../flow/forwardTarget';

/** Every figure present, absent ones as 0: what prices and totals work with. */
export interface FullUsage {
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
}

export const NO_USAGE: FullUsage = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };

/** A usage object with every figure present (absent as 0). */
export function fullUsage(usage: ProviderUsage): FullUsage {
  return { inputTokens: usage.inputTokens ?? 0, cacheReadTokens: usage.cacheReadTokens ?? 0, cacheWriteTokens: usage.cacheWriteTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
}

/** Every input token the provider counted, whatever its price. */
export function totalInputTokens(usage: ProviderUsage): number {
  return (usage.inputTokens ?? 0) + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
}

export function addUsage(left: ProviderUsage, right: ProviderUsage): FullUsage {
  const a = fullUsage(left);
  const b = fullUsage(right);
  return { inputTokens: a.inputTokens + b.inputTokens, cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens, cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens, outputTokens: a.outputTokens + b.outputTokens };
}

/** OpenAI's `usage` object (chat completions), or undefined when it is not one. */
export function openAIUsage(value: unknown): FullUsage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = count(value.prompt_tokens);
  const completion = count(value.completion_tokens);
  if (prompt === undefined || completion === undefined) return undefined;
  const details = isRecord(value.prompt_tokens_details) ? value.prompt_tokens_details : {};
  const cached = Math.min(prompt, count(details.cached_tokens) ?? 0);
  return { inputTokens: prompt - cached, cacheReadTokens: cached, cacheWriteTokens: 0, outputTokens: completion };
}

/**
 * Anthropic's `usage` object (`message_start.message.usage`, `message_delta.usage` or a whole
 * response's). Fields absent from a partial object count 0; the stream reader merges the parts.
 */
export function anthropicUsage(value: unknown): FullUsage | undefined {
  if (!isRecord(value)) return undefined;
  const fields = [value.input_tokens, value.output_tokens, value.cache_read_input_tokens, value.cache_creation_input_tokens];
  if (fields.every((field) => count(field) === undefined)) return undefined;
  return {
    inputTokens: count(value.input_tokens) ?? 0,
    cacheReadTokens: count(value.cache_read_input_tokens) ?? 0,
    cacheWriteTokens: count(value.cache_creation_input_tokens) ?? 0,
    outputTokens: count(value.output_tokens) ?? 0,
  };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * provider_context_trim: on a large Anthropic request, asks Anthropic to clear aged tool
 * results itself, before billing, with its native context-management edit
 * (`clear_tool_uses_20250919`). Annotation only: it never reads or changes message content.
 *
 * The edit goes in `request.options.context_management`; the beta it needs is added to
 * `request.options.betas` (the Anthropic SDKs' spelling). The body field `betas` is not part of
 * the Messages API: the host removes it from the body and sends its values, comma-separated,
 * as the `anthropic-beta` header (see {@link takeAnthropicBetas}). A request that carries its
 * own `context_management` passes through untouched, and observation_mask defers to this edit.
 *
 * Once it fires in a session it keeps firing, so the request parameters stay the same from
 * turn to turn even if the estimate dips under the trigger.
 */
import type { z } from 'zod';
import type { ChatRequest, Extra } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { numberOption } from './shared/optionReads';
import { optionDefaults } from '../pipeline/optionSchema';
import { PROVIDER_CONTEXT_TRIM_OPTIONS } from './options/providerContextTrimOptions';

export const PROVIDER_CONTEXT_TRIM_ID = 'provider_context_trim';
/** The edit type Anthropic clears tool results with. */
export const CLEAR_TOOL_USES_EDIT = 'clear_tool_uses_20250919';
/** The beta that enables context management. */
export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/** Options of provider_context_trim, as its schema in `options/` declares them (type, default, bounds, description). */
export type ProviderContextTrimOptions = Readonly<z.output<typeof PROVIDER_CONTEXT_TRIM_OPTIONS>>;

export const PROVIDER_CONTEXT_TRIM_DEFAULTS: ProviderContextTrimOptions = optionDefaults(PROVIDER_CONTEXT_TRIM_OPTIONS);

const FIRED_KEY = 'fired';

export function createProviderContextTrim(): Strategy {
  return {
    id: PROVIDER_CONTEXT_TRIM_ID,
    defaultEnabled: true,
    kind: 'transform',
    defaults: PROVIDER_CONTEXT_TRIM_DEFAULTS,
    optionSchema: PROVIDER_CONTEXT_TRIM_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const trigger = numberOption(context.options, PROVIDER_CONTEXT_TRIM_ID, 'triggerTokens', 1);
      const keep = numberOption(context.options, PROVIDER_CONTEXT_TRIM_ID, 'keepToolUses', 0);
      const clearAtLeast = numberOption(context.options, PROVIDER_CONTEXT_TRIM_ID, 'clearAtLeastTokens', 0);
      if (request.format !== 'anthropic') return { request, action: 'provider-trim-skipped', reason: 'not an Anthropic request' };
      if (request.options.context_management !== undefined) {
        return { request, action: 'client-context-management-kept', reason: 'the request carries its own context_management' };
      }
      const estimate = context.tokens.countForModel(request).tokens;
      const firedBefore = context.state.get<boolean>(FIRED_KEY) === true;
      if (estimate < trigger && !firedBefore) {
        return { request, action: 'provider-trim-skipped', reason: `about ${estimate} input tokens, under ${trigger}`, details: { estimatedTokens: estimate } };
      }
      context.state.set(FIRED_KEY, true);
      const edit = {
        type: CLEAR_TOOL_USES_EDIT,
        trigger: { type: 'input_tokens', value: trigger },
        keep: { type: 'tool_uses', value: keep },
        clear_at_least: { type: 'input_tokens', value: clearAtLeast },
      };
      const options: Extra = { ...request.options, context_management: { edits: [edit] }, betas: withBeta(request.options.betas) };
      return {
        request: { ...request, options },
        action: 'provider-trim-requested',
        reason: `about ${estimate} input tokens: Anthropic asked to clear tool results older than the last ${keep} uses`,
        details: { estimatedTokens: estimate, triggerTokens: trigger, keepToolUses: keep, clearAtLeastTokens: clearAtLeast },
      };
    },
  };
}

function withBeta(betas: unknown): string[] {
  const list = Array.isArray(betas) ? betas.filter((beta): beta is string => typeof beta === 'string') : typeof betas === 'string' ? betas.split(',').map((beta) => beta.trim()) : [];
  return list.includes(CONTEXT_MANAGEMENT_BETA) ? list : [...list, CONTEXT_MANAGEMENT_BETA];
}

/** True when the request asks Anthropic to clear tool results (observation_mask defers then). */
export function hasProviderContextTrim(request: ChatRequest): boolean {
  const management = request.options.context_management;
  if (typeof management !== 'object' || management === null) return false;
  const edits = (management as Record<string, unknown>).edits;
  return Array.isArray(edits) && edits.some((edit) => typeof edit === 'object' && edit !== null && (edit as Record<string, unknown>).type === CLEAR_TOOL_USES_EDIT);
}

/**
 * For the host, just before it sends a serialized Anthropic body: removes `betas` from the body
 * and returns the `anthropic-beta` header value (comma-separated), or undefined when there is none.
 */
export function takeAnthropicBetas(body: Record<string, unknown>): string | undefined {
  const betas = body.betas;
  delete body.betas;
  const list = Array.isArray(betas) ? betas.filter((beta): beta is string => typeof beta === 'string') : [];
  return list.length > 0 ? list.join(',') : undefined;
}
